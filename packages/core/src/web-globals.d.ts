// core is compiled without Node's typings (`types: []`), so `process`, `Buffer` and `node:*`
// cannot be used here. `URL` is a WHATWG standard that every JavaScript runtime provides; these
// are the members core relies on.
declare class URLSearchParams {
  has(name: string): boolean;
  set(name: string, value: string): void;
  keys(): IterableIterator<string>;
}

declare class URL {
  constructor(input: string, base?: string);
  readonly origin: string;
  protocol: string;
  hostname: string;
  host: string;
  port: string;
  username: string;
  password: string;
  readonly searchParams: URLSearchParams;
  toString(): string;
  static canParse(input: string, base?: string): boolean;
}
