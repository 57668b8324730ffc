import type { RecordedCall } from '../../bench/call-recorder.ts';
import { dealtAsEvents, host, kindOf } from '../../bench/pixel.ts';

/** The pixel ceiling deals calls captured from concurrent requests out again as whole events, each call once. */

const call = (command: string, key: string, more: Record<string, unknown> = {}): RecordedCall => ({
  command,
  input: { Key: { pk: key }, ...more },
  overlapsPrevious: false,
});
const eventOf = (n: number) => [
  call('UpdateItemCommand', `pixel:${n}`),
  call('GetItemCommand', `site ${host}`),
  call('PutItemCommand', `${host} event${n}`),
  call('UpdateItemCommand', `rollup${n}`, { ExpressionAttributeNames: { '#total': 'pageviews' } }),
];
const template = eventOf(0).map(kindOf);

it('deals interleaved calls out as events, the i-th call of each kind to the i-th event, in the order of one event', () => {
  const [a, b] = [eventOf(1), eventOf(2)];
  const interleaved = [a[0]!, b[0]!, a[1]!, b[1]!, b[2]!, a[2]!, a[3]!, b[3]!];
  const { events, others } = dealtAsEvents([...interleaved, call('QueryCommand', 'outbox'), call('UpdateItemCommand', 'event')], template);
  expect(others).toEqual({ 'other Query': 1, 'other UpdateItem': 1 });
  expect(events.map((e) => e.map((c) => (c.input.Key as { pk: string }).pk))).toEqual([
    ['pixel:1', `site ${host}`, `${host} event2`, 'rollup1'],
    ['pixel:2', `site ${host}`, `${host} event1`, 'rollup2'],
  ]);
  expect(new Set(events.flat()).size).toBe(interleaved.length);
});

it('refuses calls that are not whole events (a rejected request among them)', () => {
  expect(() => dealtAsEvents([...eventOf(1), call('UpdateItemCommand', 'pixel:3')], template)).toThrow(/captured/);
});
