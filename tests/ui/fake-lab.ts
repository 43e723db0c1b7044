/** A LabController that records what it was asked (`"submit iperf3 -c server"`) and does nothing else. */
import type { LabController } from '../../src/sim-client/lab-controller';

export function recordingLab(calls: string[]): LabController {
  return new Proxy({} as LabController, {
    get: (_, k) => {
      if (k === 'then') return undefined; // not a thenable
      if (k === 'commandLog') return () => [];
      return (...args: unknown[]) => {
        calls.push(
          [String(k), ...args.map((a) => (typeof a === 'object' ? JSON.stringify(a) : String(a)))].join(' '),
        );
        if (k === 'loadShared') return Promise.resolve(true);
        if (k === 'chartSeries' || k === 'lessonObservation') return Promise.resolve(null);
        return Promise.resolve();
      };
    },
  });
}
