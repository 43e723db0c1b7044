/**
 * The test bed most lessons start from, as NET402's iperf3 tests ran: two c7i.large instances,
 * `client` and `server`, in one cluster placement group. A fresh document on every call, so no two
 * lessons share one object.
 */
export function talkPair(): {
  version: 2;
  placement: 'cluster';
  instances: { name: string; type: string }[];
} {
  return {
    version: 2,
    placement: 'cluster',
    instances: [
      { name: 'client', type: 'c7i.large' },
      { name: 'server', type: 'c7i.large' },
    ],
  };
}
