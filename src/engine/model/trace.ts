/**
 * Typed trace events: what happened where, for the UI's inspectors and for tests. Emitting is free
 * when nobody listens (the sink is null), so models call `trace?.(...)` on every notable event
 * without slowing the hot path. Events are past tense; times are simulated ns.
 */
import type { DropReason, DropStage } from './drop-reasons';

export type TraceEvent =
  | {
      type: 'PacketDropped';
      atNs: number;
      host: string;
      stage: DropStage;
      reason: DropReason;
      flowId: number;
      packets: number;
      bytes: number;
    }
  | { type: 'CreditsExhausted'; atNs: number; host: string; direction: 'in' | 'out' }
  | { type: 'CreditsRestored'; atNs: number; host: string; direction: 'in' | 'out' }
  | { type: 'CommandStarted'; atNs: number; host: string; command: string }
  | { type: 'CommandEnded'; atNs: number; host: string; command: string; exitCode: number };

export type TraceSink = (e: TraceEvent) => void;
