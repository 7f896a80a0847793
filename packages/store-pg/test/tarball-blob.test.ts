import { describe, expect, it } from 'vitest';
import { TarballBlob } from '../src/connection/tarball-blob.js';

describe('TarballBlob: a tarball handed to PGlite without a copy', () => {
  const bytes = new TextEncoder().encode('a tarball stands in here: ✓ 0123456789');

  it('hands over the bytes it holds as an ArrayBuffer, and says their size', async () => {
    const blob = new TarballBlob(bytes);
    expect(blob.size).toBe(bytes.byteLength);
    expect(new Uint8Array(await blob.arrayBuffer())).toEqual(bytes);
    expect(await blob.bytes()).toEqual(bytes);
  });

  it('hands over only its own bytes when they are a view into a larger buffer', async () => {
    const larger = new Uint8Array(bytes.byteLength + 20);
    larger.set(bytes, 10);
    const blob = new TarballBlob(larger.subarray(10, 10 + bytes.byteLength));
    expect(new Uint8Array(await blob.arrayBuffer())).toEqual(bytes);
  });

  it('answers text, slice and stream from the same bytes as an ordinary Blob would', async () => {
    const blob = new TarballBlob(bytes);
    const ordinary = new Blob([bytes]);
    expect(await blob.text()).toBe(await ordinary.text());
    expect(await blob.slice(2, 12).text()).toBe(await ordinary.slice(2, 12).text());
    expect(new Uint8Array(await new Response(blob.stream()).arrayBuffer())).toEqual(bytes);
  });
});
