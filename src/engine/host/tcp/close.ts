/**
 * Connection close (simplified RFC 793 / Linux tcp_close, tcp_send_fin, tcp_fin): our FIN after
 * the data written, consuming one sequence number and retransmitted on the RTO; the peer's FIN
 * taken in order as the application's EOF; closed once both FINs are exchanged and ours is
 * acknowledged. TIME_WAIT is not timed. Design: docs/design.md, "TCP" (Close).
 */
import { storeAsDoubles } from '../../core/doubles';

/** What the close needs of its socket. */
export interface CloseSocket {
  readonly sndUna: number;
  sndNxt: number;
  rcvNxt: number;
  readonly writeSeq: number;
  /** Send the FIN segment (sequence number `finSeq`, with the ACK of what was received). */
  transmitFin(finSeq: number): void;
  /** Send `count` ACKs now (a pending delayed ACK is cancelled). */
  sendAck(count: number): void;
  /** A delayed ACK pending is cancelled: the FIN carries it. */
  cancelDelayedAck(): void;
  /** Arm the delayed ACK unless it is armed. */
  delayAck(): void;
  armRtoIfIdle(): void;
  stopTimers(): void;
  trySend(): void;
  /** The application reads EOF. */
  readonly onPeerFin: (() => void) | null;
  /** Both FINs exchanged and ours acknowledged (the owner may let the socket go). */
  readonly onClosed?: (() => void) | null;
}

export class TcpClose {
  /** The application closed the socket: a FIN follows the data written. */
  finPending = false;
  /** Sequence number of our FIN (the byte count written at close), −1 before close(). */
  finSeq = -1;
  /** Our FIN has been sent (sndNxt is past it). */
  finSent = false;
  /** The peer's FIN: its sequence number once seen (−1 before), and whether it was taken in order. */
  private peerFinSeq = -1;
  peerFinReceived = false;
  /** Both FINs exchanged and ours acknowledged. */
  closed = false;

  constructor(private readonly sk: CloseSocket) {
    storeAsDoubles(this, ['finSeq', 'peerFinSeq']); // sequence numbers pass 2^31 (core/doubles.ts)
  }

  /** close(2) on an established connection: a FIN after the data already written. */
  close(): void {
    if (this.finPending) return;
    this.finPending = true;
    this.finSeq = this.sk.writeSeq;
    this.sk.trySend();
  }

  /** The send path ran out of data: the FIN leaves once everything written before it was sent. */
  sendIfDue(): void {
    if (this.finPending && !this.finSent && this.sk.sndNxt === this.finSeq) this.sendFin();
  }

  /** tcp_send_fin. */
  private sendFin(): void {
    const sk = this.sk;
    this.finSent = true;
    sk.sndNxt = this.finSeq + 1;
    sk.cancelDelayedAck(); // the FIN carries the ACK of what we received
    sk.transmitFin(this.finSeq);
    sk.armRtoIfIdle();
  }

  /** The RTO fired with only the FIN outstanding: send it again. */
  onRto(): void {
    if (this.finSent && this.sk.sndUna === this.finSeq) this.sk.transmitFin(this.finSeq);
  }

  /** A FIN arrived (its ACK part already taken). */
  onFin(seq: number): void {
    if (this.peerFinSeq < 0) this.peerFinSeq = seq;
    if (!this.peerFinReceived && this.sk.rcvNxt === this.peerFinSeq) this.takeFin();
    else this.sk.sendAck(1); // a retransmitted FIN (our ACK was lost), or one ahead of missing data
  }

  /** Data arrived: a FIN that came ahead of missing data is taken once the data is in. */
  afterData(): void {
    if (!this.peerFinReceived && this.peerFinSeq >= 0 && this.sk.rcvNxt === this.peerFinSeq) this.takeFin();
  }

  /** tcp_fin: the peer's FIN in order. */
  private takeFin(): void {
    const sk = this.sk;
    this.peerFinReceived = true;
    sk.rcvNxt += 1;
    if (this.finSent) {
      // FIN_WAIT → TIME_WAIT (or CLOSING): ACK at once
      sk.sendAck(1);
      this.checkClosed();
      return;
    }
    // CLOSE_WAIT: the application reads EOF; a prompt close() sends a FIN carrying the ACK,
    // otherwise a delayed ACK (Linux enters pingpong mode on a FIN)
    sk.onPeerFin?.();
    if (!this.finSent) sk.delayAck();
  }

  /** Our FIN acknowledged and the peer's taken: closed. */
  checkClosed(): void {
    if (this.closed || !this.finSent || this.sk.sndUna <= this.finSeq || !this.peerFinReceived) return;
    this.closed = true;
    this.sk.stopTimers();
    this.sk.onClosed?.();
  }
}
