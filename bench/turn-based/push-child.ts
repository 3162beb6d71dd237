// The loopback push service (test/support/push-service.ts) in a process of its own, so that its
// decryption and TLS work are not counted as the server's: the benchmark asks it over IPC for
// subscriptions and for the arrival times of what it received.
import { startPushService } from '../../test/support/push-service.ts';

export type PushChildRequest = { subscribe: number } | { arrivals: true } | { close: true };
export type PushChildAnswer = { subscriptions: { endpoint: string; keys: { p256dh: string; auth: string } }[] } | { arrivals: number[] };

const service = await startPushService();
const arrivals: number[] = [];
let seen = 0;
// Arrival times (Date.now, comparable across processes on one machine), read without holding payloads.
setInterval(() => {
  for (; seen < service.received.length; seen++) arrivals.push(Date.now());
  service.received.length = 0;
  seen = 0;
}, 5).unref();

process.on('message', async (request: PushChildRequest) => {
  if ('subscribe' in request) {
    const subscriptions = Array.from({ length: request.subscribe }, () => {
      const s = service.subscribe();
      return { endpoint: s.endpoint, keys: s.keys };
    });
    process.send?.({ subscriptions } satisfies PushChildAnswer);
  } else if ('arrivals' in request) {
    process.send?.({ arrivals } satisfies PushChildAnswer);
  } else {
    await service.close();
    process.exit(0);
  }
});
process.send?.({ arrivals: [] } satisfies PushChildAnswer);
