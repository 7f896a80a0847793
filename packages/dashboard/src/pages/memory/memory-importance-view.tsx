import { ACCESS_SATURATION, type ImportanceParts, PINNED_FLOOR } from '@memsvc/core';
import { score } from '../../views/format.js';

/**
 * A memory's importance taken apart (core's importanceParts, with the weights the score uses):
 * what the client said, how recently it was read, how often, and the pinned floor.
 */
export function ImportanceTable(props: { parts: ImportanceParts; pinned: boolean; storedScore: number; halfLifeDays: number }) {
  const { parts } = props;
  const days = parts.recency.daysSinceTouched;
  return (
    <table class="importance">
      <caption>
        Importance now: <strong>{score(parts.score)}</strong>{' '}
        <small>(stored score {score(props.storedScore)}, as of the last change or decay scan)</small>
      </caption>
      <thead>
        <tr>
          <th scope="col">Part</th>
          <th scope="col">Value</th>
          <th scope="col">Weight</th>
          <th scope="col">Adds</th>
        </tr>
      </thead>
      <tbody>
        <tr>
          <th scope="row">
            Client importance <small>{parts.explicit.stated ? '(as the client stated it)' : '(not stated: counts as 0.5)'}</small>
          </th>
          <td>{score(parts.explicit.value)}</td>
          <td>{parts.explicit.weight.toFixed(2)}</td>
          <td>{score(parts.explicit.contribution)}</td>
        </tr>
        <tr>
          <th scope="row">
            Recency{' '}
            <small>
              (last read or created {days < 1 ? 'less than a day' : `${days.toFixed(1)} days`} ago; halves every {props.halfLifeDays} days)
            </small>
          </th>
          <td>{score(parts.recency.value)}</td>
          <td>{parts.recency.weight.toFixed(2)}</td>
          <td>{score(parts.recency.contribution)}</td>
        </tr>
        <tr>
          <th scope="row">
            Access count{' '}
            <small>
              ({parts.access.reads} {parts.access.reads === 1 ? 'read' : 'reads'}; full at {ACCESS_SATURATION})
            </small>
          </th>
          <td>{score(parts.access.value)}</td>
          <td>{parts.access.weight.toFixed(2)}</td>
          <td>{score(parts.access.contribution)}</td>
        </tr>
        <tr>
          <th scope="row">
            Pinned <small>(a pinned memory scores at least {PINNED_FLOOR})</small>
          </th>
          <td colspan={2}>
            {props.pinned ? (parts.pinnedLift > 0 ? 'pinned: raised to the floor' : 'pinned: above the floor already') : 'not pinned'}
          </td>
          <td>{parts.pinnedLift > 0 ? `+${score(parts.pinnedLift)}` : score(0)}</td>
        </tr>
      </tbody>
    </table>
  );
}
