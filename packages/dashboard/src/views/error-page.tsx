import { BarePage } from './layout.js';

/** A refusal or failure as a page: what happened in words, never a stack or a stored value. */
export function ErrorPage(props: { basePath: string; title: string; message: string }) {
  return (
    <BarePage basePath={props.basePath} title={props.title}>
      <p role="alert">{props.message}</p>
      <p>
        <a href={`${props.basePath}/memories`}>Back to your memories</a>
      </p>
    </BarePage>
  );
}
