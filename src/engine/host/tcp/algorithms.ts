/**
 * The congestion-control algorithms a socket may ask for by name (tcp_cong.c's list,
 * tcp_available_congestion_control) and the instance each socket gets (tcp_init_congestion_control).
 */
import type { ParamValues } from '../../model/params';
import type { TcpCongestionName, TcpCongestionOps } from './cong';
import { Cubic } from './cubic';
import { Reno } from './reno';

/** A new instance of algorithm `name` for one socket. */
export function newCongestionOps(name: TcpCongestionName, params: ParamValues): TcpCongestionOps {
  return name === 'reno' ? new Reno() : new Cubic(params);
}
