import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { verifies } from '../../../packages/core/test/requirements.js';
import { TrafficMeter } from '../src/traffic-meter.js';

describe('TrafficMeter: what graceful shutdown waits for', () => {
  let server: Server | undefined;
  const sockets: Socket[] = [];
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
    server = undefined;
  });

  async function listening(traffic: TrafficMeter, handle: (answer: () => void) => void): Promise<number> {
    server = createServer((_request, response) => {
      traffic.requestStarted();
      handle(() => {
        traffic.requestEnded();
        response.end('ok');
      });
    });
    traffic.watch(server);
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    return (server?.address() as AddressInfo).port;
  }

  function openConnection(port: number): Promise<Socket> {
    return new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1', () => resolve(socket));
      sockets.push(socket);
    });
  }

  async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
    return Promise.race([promise.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms))]);
  }

  it('is not quiet while a request is arriving on an accepted connection', async () => {
    const traffic = new TrafficMeter();
    const answers: (() => void)[] = [];
    const port = await listening(traffic, (answer) => answers.push(answer));
    const socket = await openConnection(port);
    socket.write('GET / HTTP/1.1\r\n');
    await expect.poll(() => traffic.requestsArriving).toBe(1);

    const quiet = traffic.whenQuiet({ quietMs: 10, turns: 3, deadline: performance.now() + 60_000 });
    expect(await settlesWithin(quiet, 150)).toBe(false);
    expect(traffic.awaitingRequest).toBe(1);

    socket.write('Host: x\r\n\r\n');
    await expect.poll(() => traffic.inFlight).toBe(1);
    expect(traffic.awaitingRequest).toBe(0);
    expect(await settlesWithin(quiet, 100)).toBe(false);

    answers.shift()?.();
    expect(await settlesWithin(quiet, 2_000)).toBe(true);
  });

  it(verifies('R-SHUTDOWN-BOUNDED', 'a connection that has sent nothing does not hold quiet, and is closed as unstarted'), async () => {
    const traffic = new TrafficMeter();
    const port = await listening(traffic, (answer) => answer());
    const socket = await openConnection(port);
    await expect.poll(() => traffic.awaitingRequest).toBe(1);
    const quiet = traffic.whenQuiet({ quietMs: 10, turns: 3, deadline: performance.now() + 60_000 });
    expect(await settlesWithin(quiet, 2_000)).toBe(true);
    const closed = new Promise((resolve) => socket.once('close', resolve));
    expect(traffic.closeUnstarted()).toBe(1);
    await closed;
    await expect.poll(() => traffic.awaitingRequest).toBe(0);
  });

  it('forgets a connection that closes without a request', async () => {
    const traffic = new TrafficMeter();
    const port = await listening(traffic, (answer) => answer());
    const socket = await openConnection(port);
    await expect.poll(() => traffic.awaitingRequest).toBe(1);
    socket.destroy();
    await expect.poll(() => traffic.awaitingRequest).toBe(0);
    expect(traffic.isQuiet(0)).toBe(true);
  });

  it('gives up at the deadline', async () => {
    const traffic = new TrafficMeter();
    traffic.requestStarted();
    const started = performance.now();
    await traffic.whenQuiet({ quietMs: 10, turns: 3, deadline: performance.now() + 100 });
    expect(performance.now() - started).toBeGreaterThanOrEqual(90);
    expect(traffic.inFlight).toBe(1);
  });
});
