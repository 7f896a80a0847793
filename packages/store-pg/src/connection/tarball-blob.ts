/**
 * A tarball in memory, as the Blob PGlite loads a new database from (`loadDataDir`). PGlite
 * reads it once with `arrayBuffer()`, and Node implements that for its own Blobs by streaming a
 * copy back in chunks: ~430 ms for a 42 MB template on a 2-core machine, a quarter of opening a
 * new embedded database. This one hands over its bytes' buffer as it is, so the bytes must not be
 * changed afterwards (PGlite only reads them; PgliteTemplates may hand the same ones out again).
 * Every other Blob method answers from the same bytes.
 */
export class TarballBlob extends Blob {
  /** Its own property over Blob's getter, which would say 0: the bytes are not in Blob's store. */
  override readonly size: number;
  readonly #bytes: Uint8Array<ArrayBuffer>;
  #copy: Blob | undefined;

  constructor(bytes: Uint8Array<ArrayBuffer>) {
    super([]);
    this.#bytes = bytes;
    this.size = bytes.byteLength;
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = this.#bytes;
    const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
    return Promise.resolve(whole ? bytes.buffer : bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  }

  override bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return Promise.resolve(this.#bytes);
  }

  override slice(start?: number, end?: number, contentType?: string): Blob {
    return this.#asNodeBlob().slice(start, end, contentType);
  }

  override stream(): ReturnType<Blob['stream']> {
    return this.#asNodeBlob().stream();
  }

  override text(): Promise<string> {
    return Promise.resolve(new TextDecoder().decode(this.#bytes));
  }

  /** The rarely used methods, from an ordinary Blob of the same bytes (made on first use). */
  #asNodeBlob(): Blob {
    this.#copy ??= new Blob([this.#bytes]);
    return this.#copy;
  }
}
