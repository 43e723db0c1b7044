/**
 * Model parameters that are not properties of an instance type: host-stack costs, Nitro internals,
 * VPC fabric latencies. Every value carries its provenance (catalog/figure.ts: documented, measured
 * with the derivation in `note`, or assumed: a named, overridable parameter with the reasoning in
 * `note`). A scenario may override any of them by name (scenario.params); the UI shows the mark.
 */
import type { Provenance } from '../../catalog/figure';

export interface Param {
  value: number;
  unit: string;
  provenance: Provenance;
  source: string;
  note?: string;
}

const p = (value: number, unit: string, provenance: Provenance, source: string, note?: string): Param => ({
  value,
  unit,
  provenance,
  source,
  note,
});

export const MODEL_PARAMS = {
  // ---------- ENA device ----------
  enaQueuePacketNs: p(
    1000,
    'ns/packet',
    'measured',
    'ENA-UTIL ena-dts RESULTS.md; TOONK',
    'Each ENA queue is processed at about 1 Mpps (ena-dts: 64 B, 1 flow/1 queue = 0.998 Mpps; TOONK: 0.7–1 Mpps per TX queue). Modelled as a per-queue service time in the device, applied to TX fetch and RX delivery alike (RX symmetry assumed).',
  ),
  // ---------- Before Nitro: the Xen paths (catalog ./xen; seed SRIOV) ----------
  xenNetbackTxPacketNs: p(
    5_000,
    'ns/packet',
    'assumed',
    'XEN-NETBACK (guest TX: grant map/copy of the request in dom0); SRIOV seed (PV sends past 2 Gbps while receiving far less)',
    "dom0 CPU time the Xen netback spends on one request the guest sends (one packet, or one GSO skb of up to 64 KB of TCP: netfront offers feature-gso-tcpv4) (reading the TX request, grant-copying the header, handing the skb to dom0's bridge and VPC code), on the one backend worker of the vif. AWS's dom0 is not published. 5 µs + xenNetbackTxByteNs per byte gives about 150 kpps (1.8 Gbps of 1,500-byte packets) before contention: a PV sender outruns a PV receiver, as in the seed, where the loss is on the receiving side.",
  ),
  xenNetbackTxByteNs: p(
    0.5,
    'ns/byte',
    'assumed',
    'XEN-NETBACK',
    'Per-byte cost of a packet the guest sends (the part of it netback copies; the rest is mapped). Assumed, with xenNetbackTxPacketNs.',
  ),
  xenNetbackRxPacketNs: p(
    7_000,
    'ns/skb',
    'assumed',
    'XEN-NETBACK (guest RX: a grant copy into a buffer the guest posted, then a response); SRIOV seed ("packet loss increases drastically in non SR-IOV enabled instances" after 700 to 800 Mbps)',
    "dom0 CPU time netback spends per skb it delivers to the guest (a TCP batch pays the fraction of a 64 KB GRO'd skb it is). Not published. With xenNetbackRxByteNs and the softirq's xenDom0RxPacketNs before it, a 1,470-byte iperf datagram (1,498 bytes of IP) costs dom0 13 µs: 77 kpps, 0.92 Gbps, and about 0.8 Gbps once dom0's preemptions (xenDom0PreemptGapNs) take their share, where the seed saw PV loss take off after 0.7–0.8 Gbps.",
  ),
  xenNetbackRxByteNs: p(
    2,
    'ns/byte',
    'assumed',
    'XEN-NETBACK (grant copy of every byte into guest memory)',
    'Per-byte copy cost on the way into the guest (about 0.5 GB/s per worker, a 2013-era dom0 core copying through grant tables). Assumed.',
  ),
  xenDom0PreemptGapNs: p(
    2_000_000,
    'ns between preemptions (mean)',
    'assumed',
    "SRIOV seed (jitter and loss with PV, 'very minimal' with SR-IOV); AWS-TELCO (SR-IOV 'to bypass the hypervisor, resulting in … lowered jitter and latency')",
    "dom0's vCPUs also serve the host's other guests (their netback and blkback work) and are scheduled by Xen: the vif's backend worker loses its CPU at random instants, on average every 2 ms (exponential gaps, from the instance's own seeded stream). While it is out, packets for the guest wait in dom0's 32-packet queue: the delay varies (jitter) and, the higher the rate, the more outages overflow the queue, so loss rises with the rate before the mean load reaches the backend's capacity.",
  ),
  xenDom0PreemptNs: p(
    200_000,
    'ns per preemption (mean)',
    'assumed',
    'SRIOV seed',
    'Mean length of one preemption of the backend worker (exponential). With xenDom0PreemptGapNs the worker loses about 9 % of its time: 32 queued packets last 0.42 ms at 1,470-byte datagrams and 0.9 Gbps, so an outage twice the mean overflows the queue at 0.7 Gbps and one of the mean does at 1 Gbps. 0 = a dom0 with nothing else to do.',
  ),
  xenDom0RxPacketNs: p(
    3_000,
    'ns/packet',
    'assumed',
    "XEN-NETBACK (xenvif_start_xmit runs in dom0's network softirq, after the physical NIC's receive and the bridge); receive livelock (softirq work preempts the kthread it feeds)",
    "dom0 CPU time a packet for the guest costs before netback's queue sees it: the physical NIC's receive, the bridge and netback's start_xmit, in softirq on the vCPU where the worker runs (one dom0 vCPU per vif assumed), so it is taken from the worker's copying whether the packet is then queued or dropped. Past the knee the more is offered, the less is delivered (receive livelock). Not published.",
  ),
  xenDom0WakeNs: p(
    30_000,
    'ns per wake-up',
    'assumed',
    "XEN-NETBACK (the guest-RX kthread sleeps in wait_event_interruptible when dom0's queue for the guest is empty; guest TX is polled by a NAPI instance in dom0 woken by netfront's event channel); SRIOV seed (jitter with PV, 'very minimal' with SR-IOV); AWS-TELCO (SR-IOV 'to bypass the hypervisor, resulting in … lowered jitter and latency')",
    "Fixed part of the time from work arriving for a sleeping netback worker to the worker running: the event or wake-up reaching dom0's idle vCPU, Xen's scheduler running that vCPU (and the host core leaving its idle state), dom0 scheduling the kthread or softirq. Not published; Xen's credit scheduler and the idle states of an Ivy Bridge core put it in the tens of µs. A worker that is already running takes new work without it, so a lone packet pays it and a packet behind others does not: the delay varies with how busy the worker is, which is the jitter of the PV path.",
  ),
  xenDom0WakeSpreadNs: p(
    10_000,
    'ns (mean)',
    'assumed',
    'XEN-NETBACK; Xen credit scheduler (a woken vCPU may wait for the one running on its core)',
    "Mean of the random part of a wake-up (exponential, from the backend's own seeded stream key xen-netback/NAME/wake), added to xenDom0WakeNs: the core's idle-state exit and dom0's vCPU finding its core busy vary from one wake-up to the next.",
  ),
  xenNetbackRxBatchNs: p(
    3_000,
    'ns per batch',
    'assumed',
    'XEN-NETBACK (rx.c: one GNTTABOP_copy hypercall per batch via gnttab_batch_copy, then RING_PUSH_RESPONSES_AND_CHECK_NOTIFY and one event-channel notification to the guest)',
    "Fixed dom0 cost of one batch copied into the guest, on top of the per-skb and per-byte costs: entering Xen for the batched grant copy and sending the event-channel notification (EVTCHNOP_send) that raises the guest's netfront interrupt. Packets of a batch reach the guest together, at its end.",
  ),
  xenNetbackRxQueuePackets: p(
    32,
    'packets',
    'assumed',
    "XEN-NETBACK (XENVIF_QUEUE_LENGTH 32, the dom0 vif device's txqueuelen)",
    "Packets the vif's qdisc in dom0 holds for the guest once netback's internal queue (xenNetbackRxQueueBytes) has stopped the vif; a packet that finds it full is dropped in dom0 (the guest sees no counter of it). Whether AWS kept the default is not known.",
  ),
  xenNetbackRxQueueBytes: p(
    524_288,
    'bytes',
    'assumed',
    "Linux's default, as AWS's dom0 kernel is not published: XEN-NETBACK (interface.c XENVIF_RX_QUEUE_BYTES = XEN_NETIF_RX_RING_SIZE/2 × PAGE_SIZE = 128 × 4 KiB, rx.c xenvif_rx_queue_tail: rx_queue_len against rx_queue_max)",
    "netback's internal queue for the guest, in skb bytes: xenvif_start_xmit queues every packet there and stops the vif once the bytes pass it; the qdisc (xenNetbackRxQueuePackets) then holds what follows until a dequeue brings the bytes back under. 512 KiB is about 350 datagrams of 1,500 bytes (4.5 ms of the backend's work at its knee) but only 8 GRO'd 64 KB TCP skbs. Linux 3.19 and later; which kernel AWS's dom0 ran is not known (older netback held up to the guest's 256 posted ring slots instead).",
  ),
  xenNetbackTxBatch: p(
    64,
    'requests per poll',
    'assumed',
    "Linux's default, as AWS's dom0 kernel is not published: XEN-NETBACK (interface.c XENVIF_NAPI_WEIGHT 64: xenvif_poll runs xenvif_tx_action with that budget)",
    "Guest TX requests netback's NAPI poll takes from the netfront ring at once: it builds their grant copy and map operations, runs them with one batched hypercall and hands the skbs to dom0's stack together at the end. 1 = one request at a time.",
  ),
  xenNetbackTxBatchNs: p(
    3_000,
    'ns per batch',
    'assumed',
    'XEN-NETBACK (netback.c xenvif_tx_action: gnttab_batch_copy and gnttab_map_refs for the batch, then the TX responses and one event-channel notification to the guest)',
    'Fixed dom0 cost of one guest-TX poll, on top of the per-request and per-byte costs: entering Xen for the batched grant copy and map and notifying the guest of its freed TX slots. Assumed equal to xenNetbackRxBatchNs.',
  ),
  xenNetfrontPacketNs: p(
    100,
    'ns/packet',
    'assumed',
    'XEN-NETFRONT (xennet_start_xmit: a ring request and a grant per page)',
    "Guest-side time to post one packet on the netfront TX ring (the device stage of the vif path); the real cost is the backend's.",
  ),
  ixgbevfQueuePacketNs: p(
    100,
    'ns/packet',
    'assumed',
    'IXGBEVF; Intel 82599 (10 GbE line rate is 14.88 Mpps of 64-byte frames per port)',
    'Per-queue DMA time of the 82599 VF per packet: about 10 Mpps per queue, above anything the 10 Gbps port carries, so the port and the VPC shapers bind, not the queue.',
  ),
  // ---------- DPDK poll-mode drivers ----------
  dpdkPmdPacketNs: p(
    30,
    'ns/packet',
    'assumed',
    'none (DPDK performance reports give tens of ns per packet per core for io/txonly forwarding)',
    'CPU time a DPDK forwarding lcore spends per packet (build or receive, rte_eth_tx_burst/rx_burst, mbuf free) on its vCPU; an empty poll of one queue is charged the same. At 30 ns one lcore drives ~33 Mpps, far above the ~1 Mpps an ENA queue moves, so the device and the Nitro card stay the bottleneck, as in TOONK and ena-dts.',
  ),
  // ---------- Nitro card ----------
  nitroShaperQueueNs: p(
    2_000_000,
    'ns at the shaped rate',
    'assumed',
    'AWS-ENAPERF ("queueing and then dropping"); REINVENT 6-s test',
    'Depth of each Nitro shaper queue, expressed as time at the rate it shapes to. AWS does not publish it; 2 ms is a round figure. (A flow over its own limit backs up into its host rather than this queue: nitroFlowLimitHoldsTxCompletion.)',
  ),
  nitroFlowLimitHoldsTxCompletion: p(
    1,
    '1 = yes, 0 = no',
    'assumed',
    'REINVENT 6-s test (0 Retr at the flow limit) and UDP -P 8 test (sender 26 Gbps over a 12.5 Gbps instance); ENA-README LLQ ("the rest of the packet payload is fetched by the device")',
    "Whether the card reports a packet's TX completion only once it has passed its flow's limiter (1), or as soon as it fetched it (0). AWS does not say. With 1 a flow held at its limit keeps its descriptors and skbs outstanding, so TCP Small Queues and the socket's wmem push back on the sender: NET402 shows a single flow held at 10 Gbps for 6 s with 0 retransmits and a flat cwnd, which a card that completed at fetch and queued the excess could only give with a queue deeper than any cwnd CUBIC reaches. The instance-wide shapers (bandwidth, PPS) act after the completion: NET402's UDP test reports 26 Gbps sent on a 12.5 Gbps instance, which a sender held back by completions could not.",
  ),
  nitroCardBucketNs: p(
    2_000,
    'ns at the card bandwidth',
    'assumed',
    'AWS-NITRO (per-card bandwidth by generation)',
    "Token-bucket depth of the card's own bandwidth (NITRO_CARD_BANDWIDTH_GBPS, both directions): what passes at once after a pause. A card is a serial device: 2 µs (42 KB at 170 Gbps, a few jumbo frames) keeps the 10 µs view within what the card can carry.",
  ),
  nitroShaperMinQueuePackets: p(
    64,
    'packets',
    'assumed',
    'none',
    'Floor on a shaper queue depth so that very low shaped rates still absorb a burst of a few dozen packets.',
  ),
  nitroFlowQuantumBytes: p(
    65_536,
    'bytes',
    'assumed',
    'REINVENT ("Independent Assignment – Queue – Nitro Processor"; even splits 6.24/6.22 Gbps and 471/477 Mbps)',
    "Deficit-round-robin quantum with which a Nitro shaper serves the flows waiting in it. AWS does not describe the scheduler; the talk's two-flow tests split the instance allowance evenly, which a FIFO would not guarantee. 0 = no per-flow scheduling: one FIFO for every flow (the other design, to compare).",
  ),
  nitroShaperFairBufferShare: p(
    1,
    '1 = yes, 0 = no',
    'assumed',
    'Choudhury & Hahne, "Dynamic queue length thresholds for shared-memory packet switches", IEEE/ACM ToN 1998 (a queue may grow only within a share of the shared buffer, so none monopolises it: the scheme of shared-buffer switch silicon); Linux sch_fq flow_limit (a per-flow cap in packets)',
    "Whether a Nitro shaping stage caps each flow's part of its one buffer at capacity / (flows with packets waiting, the arriving one included); an arrival beyond its flow's share is dropped (drop-tail within the share). A lone flow may fill the whole buffer. 0: only the stage's total is capped (the lab's earlier design). With 0, behind DRR, a TCP flow that stopped growing (held by its receive window) kept most of the buffer and never arrived to a full one while the other flow took every loss (-t 200 -l 9000 -P 2: Retr 7,623 vs 215,920), and equal paced UDP flows whose packets arrived just after a departure never lost while flows arriving when it was full lost nearly all (8 × 4 Gbit/s into c6i.8xlarge: three flows 3.99 Gbit/s, four ≈ 0). AWS does not describe Nitro's buffer management.",
  ),
  nitroPpsAssuredShare: p(
    0.5,
    'fraction of the PPS allowance',
    'assumed',
    'STRESSGRID (m5.metal: a 2.2 Mpps budget shared by inbound and outbound; a UDP echo server peaks at ≈ 1 M echoes/s with idgm/s ≈ odgm/s); AWS-ENAPERF ("bidirectional PPS")',
    "Share of the instance PPS allowance each direction is assured; a direction may borrow the rest of the shared budget while the other leaves it unused (an HTB class borrowing from its parent: a batch passes when its direction's share or the shared bucket holds tokens, and is charged to both). So one direction alone gets the whole allowance, and two saturated directions get half each: an echo server flooded inbound still sends its replies (in ≈ out ≈ 1.1 Mpps on m5.metal, as STRESSGRID saw). AWS does not describe the arbitration; 0.5 is the even split STRESSGRID's echo test shows. 0 = no assured share: the directions take the shared budget first come, first served (the lab's earlier design, under which a flooded echo server admitted the whole budget inbound and dropped its replies).",
  ),
  hostForwardPacketNs: p(
    600,
    'ns per packet',
    'assumed',
    'TOONK (a standard Ubuntu 20.04 kernel forwarded the c5n figures: "the earlier observed pps numbers weren\'t too high … safe to use the regular Linux kernel"); common Linux forwarding rates of about 1-2 Mpps per core for small packets',
    "CPU time the kernel spends forwarding one packet (ip_rcv, the FIB lookup, ip_forward, neighbour output, dev_queue_xmit), on the vCPU of the RX queue that received it (NAPI), on top of the receive path's own cost. Unpublished for EC2; 600 ns puts one core near 1 Mpps with the receive cost, so a router's cores bind only when few queues carry the traffic. 0 = free.",
  ),
  nitroPpsExtraEniPenalty: p(
    0.02,
    'fraction of the PPS allowance per extra interface',
    'assumed',
    'STRESSGRID (m5.metal with several network interfaces, flooded round-robin: "a small decrease in performance for all packet sizes, except 8 kbytes … the same budget gets split between multiple network interfaces, with some additional performance penalty")',
    "The instance's one PPS allowance, which all its interfaces share, shrinks by this fraction for each interface attached beyond the first (budget × (1 − penalty × (interfaces − 1)), at least 0). STRESSGRID saw a small loss with several interfaces wherever packets bound (not with 8 KB datagrams, which the bandwidth allowance binds) and read it as one physical interface multiplexed across several logical ones; the article gives no figure, so 2 % per interface is a guess at 'small'. 0 = none: two interfaces then do exactly as well as one. The sharing itself is not a parameter: every interface's packets are charged to the instance's one budget.",
  ),
  nitroPpsHoldsTxFetch: p(
    1,
    '1 = yes, 0 = no',
    'assumed',
    'REINVENT "Opportunistic Allocation: Cycle Time Allotted for Each Nitro Processor, Instance = Percent of Cycle Time" (with pps_allowance_exceeded); TOONK (c5n.18xlarge DPDK pktgen: TX ≈ 8.5 Mpps at the sender from 12 queues on); AWS-ENAPERF ("queued or dropped")',
    "Whether the egress PPS allowance is the card's packet-processing budget, gating the ENA device's fetch from the TX rings (1), or a shaper after the TX completion like the bandwidth allowances (0, the lab's earlier design). With 1 the excess waits in the TX rings and backs up into the sender, whose own TX counters then plateau at the allowance: dpdk-testpmd txonly on c5n.18xlarge reports ≈ 8.5 Mpps from 12 queues on, as TOONK measured at the sender (with 0 it reported 12, 16, 32 Mpps sent while only the receiver saw the ceiling). The bandwidth allowances stay after the completion: NET402's UDP sender reports 26 Gbps on a 12.5 Gbps instance, which back-pressure from a bandwidth gate would not allow (its socket's send buffer would hold it). Ingress stays a shaper (queue, then drop). Only on Nitro hosts.",
  ),
  ppsBucketNs: p(
    1_000_000,
    'ns of allowance',
    'assumed',
    'none',
    'Token-bucket depth of the PPS allowance: 1 ms worth of packets. Unpublished; microbursts shorter than this pass unshaped.',
  ),
  bwBucketNs: p(
    1_000_000,
    'ns of allowance',
    'assumed',
    'none',
    'Token-bucket depth of the bandwidth shapers (instance in/out, per flow): 1 ms at the shaped rate. Unpublished.',
  ),
  nitroChargeOverheadBytes: p(
    18,
    'bytes/packet',
    'assumed',
    'none',
    'Bytes a Nitro bandwidth allowance charges per packet beyond the IP length: the Ethernet header and FCS (14 + 4). AWS does not say at which layer allowances count.',
  ),
  nitroSlowPathNs: p(
    1_000,
    'ns/flow setup',
    'assumed',
    'AWS-NITROPERF ("evaluates the full flow" on the first packet; new connections cost extra, measured as CPS); REINVENT "Initial Security Group Eval: Processing-Path with lower Packets Per Second"',
    "Service time of the Nitro full processing path for one packet (route, NACL, SG, mapping, conntrack, flow-cache install), on one FIFO slow-path server per card, so a burst of new flows queues. AWS does not publish it (nor a CPS figure). 1 µs (about 1M setups/s, far below the accelerated path) keeps one flow's setup negligible; tens of µs would hold the packets of dpdk-testpmd's 512 simultaneous new flows long enough to release them as a burst above the PPS bucket (exp 6 would show pps_allowance_exceeded below its knee).",
  ),
  nitroSlowPathPerSgRuleNs: p(
    200,
    'ns/SG rule',
    'assumed',
    'AWS-NITROPERF ("As more security group rules are applied, more work is required to evaluate the flow")',
    'Extra full-path time per security-group rule (inbound + outbound, all groups of the ENI). AWS says the cost grows with the rules but gives no figure.',
  ),
  conntrackAllowanceOverride: p(
    0,
    'entries',
    'assumed',
    'AWS-CT (the per-instance maximum is not published)',
    'Per-instance conntrack allowance used instead of the catalog figure when > 0 (0 = the catalog conntrackAllowanceMax). For experiments with a small table.',
  ),
  conntrackClosedLingerNs: p(
    5_000_000_000,
    'ns after the last packet',
    'assumed',
    'AWS What\'s New 2023-11-20 ("if an EC2 instance does not send or receive a FIN or RST, the connections can stay idle for up to 5 days"; idle connections were tracked "until they were closed"); Linux nf_conntrack tcp_timeout_close 10 s, tcp_timeout_time_wait 120 s',
    'How long the Nitro card keeps the conntrack entry of a TCP connection that has seen a FIN in both directions (or an RST), counted from its last packet, before removing it. AWS says closed connections stop being tracked but not how soon. 5 s lets the last ACK pass (one round trip: µs to ms in a VPC) and a lost FIN be retransmitted four times (RTO from 200 ms, doubling: 3 s in all), and stays below what Linux nf_conntrack keeps a closed connection (10 s after a RST, 120 s in TIME_WAIT).',
  ),
  burstCreditSecondsOverride: p(
    0,
    's',
    'assumed',
    'AWS-BW (burst duration published only as "5 to 60 minutes")',
    'Burst duration at full burst used instead of the catalog figure when > 0 (0 = the catalog burstCreditSeconds). For lessons and experiments that should not wait 6.5 simulated minutes.',
  ),
  linkLocalBucketPackets: p(
    32,
    'packets',
    'assumed',
    'VPC-UG DNS quotas (1024 pps per ENI, "cannot be increased"); AWS-ENAPERF (linklocal_allowance_exceeded)',
    'Depth of the per-ENI link-local token bucket (DNS to the resolver, IMDS, Time Sync) that refills at the documented 1024 pps. AWS gives only the rate. 32 packets (~31 ms at the rate) lets a resolver burst at boot or a few retries through while a sustained 5000 qps drops 5000 − 1024 per second, whatever the depth.',
  ),
  egressFragmentBucketPackets: p(
    32,
    'packets',
    'assumed',
    'ENA-BP "Managing High Volume of Egress Fragmented Packets"; AWS-ENAPERF ("egress fragment PPS limit of 1024")',
    'Depth of the per-ENI token bucket that refills at the documented 1024 egress IP fragments per second; excess fragments are dropped and counted in pps_allowance_exceeded. AWS gives only the rate; 32 packets (as for the link-local allowance) lets a few fragmented datagrams through at once while a sustained stream over 1024 fragments/s loses the excess whatever the depth.',
  ),
  resolverResponseNs: p(
    200_000,
    'ns',
    'assumed',
    'none',
    'Time the Route 53 Resolver (169.254.169.253 / VPC+2) takes to answer a query for a name it holds (the VPC\'s instances), from the query leaving the Nitro card to the answer entering it. AWS publishes no figure; dig against the VPC resolver typically reports "Query time: 0 msec" or 1 msec for such names.',
  ),
  // ---------- applications (the lab's HTTP server, TLS) ----------
  httpServerRequestNs: p(
    20_000,
    'ns/request',
    'assumed',
    'none',
    "The lab's web server (every instance, ports 80/443, nginx-like static files): time from the whole request being readable to the response being written (parse, open, headers). Tens of µs is the order of a static-file hit in nginx.",
  ),
  tlsClientHelloBytes: p(
    517,
    'bytes',
    'assumed',
    'none',
    'TLS 1.3 ClientHello as curl 8 / OpenSSL 3 send it (commonly 517 bytes with the padding extension).',
  ),
  tlsServerFlightBytes: p(
    4_000,
    'bytes',
    'assumed',
    'none',
    "TLS 1.3 server flight (ServerHello, EncryptedExtensions, Certificate, CertificateVerify, Finished) with a one-certificate RSA-2048 chain: about 4 KB. HTTPS is modelled as this one extra round trip (RFC 8446 full handshake); the crypto's CPU time is not modelled.",
  ),
  tlsClientFinishedBytes: p(
    80,
    'bytes',
    'assumed',
    'none',
    'TLS 1.3 client ChangeCipherSpec + Finished record sent before the HTTP request (6 + 74 bytes).',
  ),
  // ---------- VPC fabric ----------
  // ---------- ENA Express (SRD) ----------
  enaSrdAddedOneWayNs: p(
    20_000,
    'ns/packet',
    'assumed',
    'AWS-ENAX ("a slight increase in packet latency (tens of microseconds) when the packet uses ENA Express" at light load)',
    'Extra one-way delay of a packet sent over SRD (encapsulation, multipath spraying, reordering on the receiving card), added at the sending card. AWS gives only "tens of microseconds"; 20 µs is the smallest round value that reading allows.',
  ),
  enaSrdRetransmitNs: p(
    100_000,
    'ns',
    'assumed',
    'AWS-ENAX ("handles … most retransmits that are needed" in the network layer; "reduces tail latency … during periods of high network load"); REINVENT ("reacts well to incasts"); Shalev et al., IEEE Micro 2020 (SRD retransmits from the Nitro card in microseconds, not at TCP\'s millisecond timeouts)',
    'Time from the drop of an SRD packet at the receiving card (its ingress shaper queue full, as under incast) to the moment the sending card knows and queues it again, first in its SRD connection; TCP (SACK recovery, TLP or a 200 ms minimum RTO) or, for UDP, the application never see the loss. Not published; about one same-AZ round trip (fabricOneWayNsSameAz × 2 + SRD overhead), since SRD detects loss from its own acknowledgements.',
  ),
  enaSrdRetransmitBufferBytes: p(
    16_777_216,
    'bytes',
    'assumed',
    'AWS-ENAPERF (ena_srd_resource_utilization: share of the memory for concurrent SRD connections in use; at 100% traffic falls back and "possibility of dropped packets increases")',
    'SRD memory of one card: packets its SRD connections hold, queued behind their congestion windows or sent and not yet acknowledged; ena_srd_resource_utilization is its occupancy in percent. When a new packet does not fit it is sent as standard ENA (the fallback AWS describes). AWS publishes no size; 16 MiB holds ~5 ms of a 25 Gbps flow.',
  ),
  enaSrdInitialWindowBytes: p(
    262_144,
    'bytes',
    'assumed',
    'Shalev et al., IEEE Micro 2020 (SRD congestion control in the sending Nitro card, per connection, driven by its own acknowledgements; the algorithm and its constants are not published)',
    'Congestion window (bytes in flight, sent and not yet acknowledged by the receiving card) of a new SRD connection between two ENIs. 256 KiB is about the bandwidth-delay product of a 25 Gbps SRD flow over a cluster round trip (2 × (12 + 20) µs ≈ 64 µs → 200 KB), so a lone flow is not slowed at the start; a same-AZ flow (≈ 120 µs, 375 KB) grows to its BDP by additive increase.',
  ),
  enaSrdTargetQueueDelayNs: p(
    50_000,
    'ns',
    'assumed',
    'AWS-ENAX ("tens of microseconds" added at low load; "reduces tail latency" under load); the delay target of Swift (Kumar et al., SIGCOMM 2020), a published delay-based datacenter transport used here as a stand-in for SRD\'s unpublished law',
    "Queueing delay an SRD connection tolerates: an acknowledgement whose round trip exceeds the connection's minimum by more than this means a queue on the path (under incast: the receiver's ingress shaper), and the window is reduced. Tens of microseconds, as AWS describes SRD's latency cost; 50 µs is 78 KB at 12.5 Gbps, a few jumbo frames per sender.",
  ),
  enaSrdAdditiveIncreaseBytes: p(
    8_900,
    'bytes per round trip',
    'assumed',
    "AIMD (Chiu & Jain 1989), as in Swift and TCP congestion avoidance; SRD's own rule is not published",
    "Window growth of an SRD connection per window of acknowledgements without congestion: one SRD MTU (8900 B) per round trip, TCP's congestion-avoidance step at the SRD MTU.",
  ),
  enaSrdDecreaseFactor: p(
    0.5,
    'factor',
    'assumed',
    "AIMD (Chiu & Jain 1989); Swift bounds its decrease at 0.5 per round trip; SRD's own rule is not published",
    "Multiplier of an SRD connection's window on congestion (a round trip over target, or a drop at the receiving card), at most once per round trip. Never below one SRD MTU.",
  ),
  fabricOneWayNsCluster: p(
    12_000,
    'ns',
    'assumed',
    'ENA-UTIL ena-dts (p50 RTT 25 µs at 64 B, c5n.18xlarge cluster)',
    "One-way fabric latency between Nitro cards in a cluster placement group, chosen so that the modelled 64-B round trip lands near ena-dts' 25 µs p50.",
  ),
  fabricOneWayNsSameAz: p(
    40_000,
    'ns',
    'assumed',
    'none',
    'One-way latency between instances in one AZ outside a cluster placement group (typical published RTTs 50–100 µs).',
  ),
  fabricOneWayNsCrossAz: p(
    400_000,
    'ns',
    'assumed',
    'none',
    'One-way latency across AZs (AWS describes inter-AZ latency as single-digit milliseconds at most; ~0.5–1 ms RTT is typical).',
  ),
  fabricOneWayNsInternet: p(
    10_000_000,
    'ns',
    'assumed',
    'none',
    'One-way latency from the internet gateway to a peer on the internet (20 ms RTT).',
  ),
  fabricOneWayNsOtherVpc: p(
    100_000,
    'ns',
    'assumed',
    'none (AWS MTU page: traffic through an internet gateway is limited to 1500 bytes; SRIOV seed: two VPCs, MTU 9001 lost packets)',
    "One-way latency to an instance of another VPC in the same AZ reached at its public address: out through the sender's internet gateway (its 1:1 address translation) and in through the receiver's. Not published; assumed the same-AZ fabric plus 60 µs for the two gateways.",
  ),
  // ---------- Linux host stack ----------
  hostRxWakeupMeanNs: p(
    12_000,
    'ns (mean)',
    'assumed',
    'none published for EC2; ping between instances shows RTTs that vary by tens of µs (mdev 0.01–0.03 ms in a cluster placement group is common), never identical ones',
    "Mean of the extra time, exponentially distributed (a wakeup is memoryless), between a lone packet landing in an idle host's RX ring and its kernel handling it: the ENA interrupt (interrupt moderation may hold it), the vCPU waking from idle, the NAPI softirq getting scheduled. Drawn per packet from the host's own random stream (key instance/NAME/rx-wakeup) for what ping measures: the echo request where the target's kernel answers it (icmp_echo), the reply where the sender's kernel timestamps it. Bulk transfers do not draw it: there NAPI polls back to back and the ENA device's adaptive interrupt moderation is modelled as such. 12 µs at each end gives ping an mdev of about 0.017 ms over a 12 µs one-way fabric.",
  ),
  tcpLimitOutputBytes: p(
    1_048_576,
    'bytes',
    'documented',
    'LINUX net.ipv4.tcp_limit_output_bytes (6.1, Amazon Linux 2023)',
    'TCP Small Queues: bytes a socket may have in the qdisc and driver before TX completion.',
  ),
  tcpWmemDefault: p(
    16_384,
    'bytes',
    'documented',
    'LINUX net.ipv4.tcp_wmem[1]',
    "A TCP socket's initial send buffer (sk_sndbuf); without SO_SNDBUF it grows by tcp_sndbuf_expand up to tcp_wmem[2].",
  ),
  tcpWmemMax: p(4_194_304, 'bytes', 'documented', 'LINUX net.ipv4.tcp_wmem[2]'),
  tcpMaxHeaderBytes: p(
    304,
    'bytes',
    'documented',
    'LINUX MAX_TCP_HEADER = 128 + MAX_HEADER (LL_MAX_HEADER 128 + 48 with tunnels built, x86_64 distribution kernel)',
    'Headroom of a TCP skb; one term of the per-segment send-buffer cost in tcp_sndbuf_expand. Depends on the kernel config, but the sum there is rounded up to a power of two: any value from 281 to 7115 gives the same buffer for MSS 1448 and 8949.',
  ),
  skbSharedInfoBytes: p(
    320,
    'bytes',
    'documented',
    'LINUX SKB_DATA_ALIGN(sizeof(struct skb_shared_info)), x86_64, MAX_SKB_FRAGS 17',
  ),
  skbStructBytes: p(256, 'bytes', 'documented', 'LINUX SKB_DATA_ALIGN(sizeof(struct sk_buff)), x86_64'),
  tcpRmemMax: p(6_291_456, 'bytes', 'documented', 'LINUX net.ipv4.tcp_rmem[2]'),
  udpWmemDefault: p(212_992, 'bytes', 'documented', 'LINUX net.core.wmem_default'),
  udpRmemDefault: p(212_992, 'bytes', 'documented', 'LINUX net.core.rmem_default'),
  tcpRtoMinNs: p(200_000_000, 'ns', 'documented', 'LINUX TCP_RTO_MIN'),
  tcpInitCwnd: p(10, 'segments', 'documented', 'LINUX TCP_INIT_CWND (RFC 6928)'),
  tcpDelAckNs: p(40_000_000, 'ns', 'documented', 'LINUX TCP_DELACK_MIN (HZ/25)'),
  napiBudget: p(64, 'packets', 'documented', 'LINUX NAPI_POLL_WEIGHT'),
  groMaxBytes: p(65_536, 'bytes', 'documented', 'LINUX gro_max_size default (GRO_LEGACY_MAX_SIZE)'),
  gsoMaxBytes: p(65_536, 'bytes', 'documented', 'LINUX gso_max_size default'),
  hostRxPacketNs: p(
    350,
    'ns/packet',
    'assumed',
    'none',
    "Kernel RX cost per packet in NAPI (descriptor, skb, GRO) on the queue's vCPU. Typical Linux figures are 0.2–0.5 µs.",
  ),
  hostStackSkbNs: p(
    1_500,
    'ns/skb',
    'assumed',
    'none',
    'Kernel protocol cost per skb (a GSO or GRO super-packet): TCP/UDP/IP processing, one socket wake-up.',
  ),
  hostTxSegmentNs: p(
    150,
    'ns/segment',
    'assumed',
    'none',
    'Software GSO segmentation and driver transmit cost per wire packet (ENA has no TSO on EC2: docs/domain-facts.md §1.9).',
  ),
  hostTxCleanPacketNs: p(
    50,
    'ns/packet',
    'assumed',
    'none',
    'Driver cost of cleaning one completed TX descriptor in NAPI (ena_clean_tx_irq: unmap, free the skb, TSQ callback).',
  ),
  udpTxSkbOverheadBytes: p(
    256,
    'bytes/datagram',
    'assumed',
    'LINUX sk_wmem_alloc counts skb->truesize',
    'What one outgoing datagram costs against SO_SNDBUF beyond its payload and headers (skb and shared-info overhead).',
  ),
  udpRxSkbOverheadBytes: p(
    768,
    'bytes/datagram',
    'assumed',
    'LINUX sk_rmem_alloc counts skb->truesize',
    'What one received datagram costs against SO_RCVBUF beyond its payload (skb, shared info, the RX page fragment).',
  ),
  hostCopyNsPerByte: p(
    0.1,
    'ns/byte',
    'assumed',
    'none',
    'User↔kernel copy: 10 GB/s per core, a common memcpy figure for these CPUs.',
  ),
  tcpSendmsgNs: p(
    1_000,
    'ns/call',
    'assumed',
    'none',
    'Fixed cost of one write()/sendmsg() on a TCP socket (syscall, socket lock, skb allocation), before the per-byte copy.',
  ),
  tcpRecvmsgNs: p(
    1_000,
    'ns/call',
    'assumed',
    'none',
    'Fixed cost of one read()/recvmsg() on a TCP socket, before the copy.',
  ),
  udpSendmsgNs: p(
    4_500,
    'ns/call',
    'measured',
    'REINVENT UDP microburst (c7i.large, 8 streams × -b 10G, 1 s: 364,279 datagrams of ~8.9 kB)',
    '364,279 datagrams/s on 2 vCPUs is 5.5 µs of CPU per datagram; less the modelled copy (0.9 µs) and segment cost leaves ≈ 4.5 µs per sendmsg call (syscall, iperf3 loop, UDP/IP, qdisc, driver).',
  ),
  udpRecvmsgNs: p(
    2_000,
    'ns/call',
    'assumed',
    'none',
    'Receiver recvmsg syscall cost per datagram (plus copy).',
  ),
  udpEchoLoopNs: p(
    100,
    'ns/datagram',
    'assumed',
    'none (STRESSGRID describes its C echo server, not its cost)',
    "udp-echo's own work per datagram besides the recvfrom and sendto it makes (udpRecvmsgNs, udpSendmsgNs and the copies): the loop and the sender's address handed back. Small next to the syscalls; with it a udp-echo thread echoes about 150 k datagrams/s of 100 bytes, so m5.metal's 96 threads are far above the 1.1 M echoes/s its PPS allowance lets through, as STRESSGRID's server kept up (idgmerr/s stayed 0).",
  ),
} satisfies Record<string, Param>;

export type ParamName = keyof typeof MODEL_PARAMS;
export type ParamValues = Record<ParamName, number>;

/** Parameter values with scenario overrides applied. Unknown names are rejected by the scenario schema. */
export function resolveParams(overrides: Partial<Record<string, number>> = {}): ParamValues {
  const out = {} as ParamValues;
  for (const [k, v] of Object.entries(MODEL_PARAMS) as [ParamName, Param][]) {
    const o = overrides[k];
    out[k] = typeof o === 'number' ? o : v.value;
  }
  return out;
}

/**
 * What a scenario may set each parameter to. Out of range, the scenario is refused with a message
 * naming the range, so a run cannot be frozen (a NAPI budget of 0 never delivers a packet) or made
 * endless (1e308 ns per packet) by a parameter. Bounds are the values' physical sense (a count of
 * packets is an integer ≥ 1, a factor lies in (0, 1]) or, for times and sizes, a span wide enough
 * for any experiment (three or more orders of magnitude around the default) and small enough that
 * a run still ends. `tests/properties/params-range.prop.test.ts` runs the lab at both ends of each.
 */
export interface ParamRange {
  min: number;
  max: number;
  integer?: true;
}

const r = (min: number, max: number): ParamRange => ({ min, max });
const int = (min: number, max: number): ParamRange => ({ min, max, integer: true });
/** CPU time per operation: ≥ 1 ns (a cost of 0 lets a loop send without time passing), ≤ 1 ms. */
const cpuNs = r(1, 1e6);
/** Bytes of a socket buffer: Linux's SOCK_MIN_SNDBUF order (4 KiB) to 2 GiB − 1 (an int). */
const sockBuf = int(4096, 2 ** 31 - 1);

export const PARAM_RANGES = {
  enaQueuePacketNs: r(1, 1e6),
  dpdkPmdPacketNs: cpuNs,
  nitroShaperQueueNs: r(0, 1e9),
  nitroFlowLimitHoldsTxCompletion: int(0, 1),
  nitroCardBucketNs: r(0, 1e9),
  nitroShaperMinQueuePackets: int(1, 1_000_000),
  nitroFlowQuantumBytes: int(0, 2 ** 30),
  ppsBucketNs: r(0, 10e9),
  bwBucketNs: r(0, 10e9),
  nitroChargeOverheadBytes: int(0, 10_000),
  nitroSlowPathNs: r(0, 1e9),
  nitroSlowPathPerSgRuleNs: r(0, 1e8),
  conntrackAllowanceOverride: int(0, 1e9),
  conntrackClosedLingerNs: r(0, 432_000e9),
  burstCreditSecondsOverride: r(0, 86_400),
  linkLocalBucketPackets: int(1, 1_000_000),
  egressFragmentBucketPackets: int(1, 1_000_000),
  resolverResponseNs: r(0, 60e9),
  httpServerRequestNs: r(0, 60e9),
  tlsClientHelloBytes: int(1, 1_000_000),
  tlsServerFlightBytes: int(1, 1_000_000),
  tlsClientFinishedBytes: int(1, 1_000_000),
  enaSrdAddedOneWayNs: r(0, 1e9),
  enaSrdRetransmitNs: r(1_000, 1e9),
  enaSrdRetransmitBufferBytes: int(65_536, 2 ** 34),
  enaSrdInitialWindowBytes: int(8_900, 2 ** 30),
  enaSrdTargetQueueDelayNs: r(0, 1e9),
  enaSrdAdditiveIncreaseBytes: int(1, 2 ** 30),
  enaSrdDecreaseFactor: r(0.01, 1),
  // 1 µs: light crosses 200 m of fibre; nothing between two Nitro cards is faster
  fabricOneWayNsCluster: r(1_000, 10e9),
  fabricOneWayNsSameAz: r(1_000, 10e9),
  fabricOneWayNsCrossAz: r(1_000, 10e9),
  fabricOneWayNsInternet: r(1_000, 10e9),
  fabricOneWayNsOtherVpc: r(1_000, 10e9),
  tcpLimitOutputBytes: int(1, 2 ** 31 - 1),
  tcpWmemDefault: sockBuf,
  tcpWmemMax: sockBuf,
  tcpMaxHeaderBytes: int(0, 65_536),
  skbSharedInfoBytes: int(0, 65_536),
  skbStructBytes: int(0, 65_536),
  tcpRmemMax: sockBuf,
  udpWmemDefault: sockBuf,
  udpRmemDefault: sockBuf,
  // Linux: TCP_RTO_MIN can be lowered per route (rto_min) to a few ms; TCP_RTO_MAX is 120 s
  tcpRtoMinNs: r(1e6, 120e9),
  tcpInitCwnd: int(1, 1_000),
  tcpDelAckNs: r(0, 1e9),
  napiBudget: int(1, 65_536),
  groMaxBytes: int(1, 524_288),
  gsoMaxBytes: int(1, 524_288),
  hostRxPacketNs: cpuNs,
  hostStackSkbNs: cpuNs,
  hostTxSegmentNs: cpuNs,
  hostTxCleanPacketNs: cpuNs,
  udpTxSkbOverheadBytes: int(0, 65_536),
  udpRxSkbOverheadBytes: int(0, 65_536),
  hostCopyNsPerByte: r(0, 1_000),
  tcpSendmsgNs: cpuNs,
  tcpRecvmsgNs: cpuNs,
  udpSendmsgNs: cpuNs,
  udpRecvmsgNs: cpuNs,
  hostRxWakeupMeanNs: r(0, 1e9),
  nitroShaperFairBufferShare: int(0, 1),
  nitroPpsAssuredShare: r(0, 1),
  nitroPpsHoldsTxFetch: int(0, 1),
  nitroPpsExtraEniPenalty: r(0, 1),
  hostForwardPacketNs: cpuNs,
  ixgbevfQueuePacketNs: r(1, 1e6),
  xenNetbackTxPacketNs: cpuNs,
  xenNetbackTxByteNs: r(0, 1_000),
  xenNetbackRxPacketNs: cpuNs,
  xenNetbackRxByteNs: r(0, 1_000),
  // a gap of 0 would preempt dom0's worker again at once, forever
  xenDom0PreemptGapNs: r(1_000, 60e9),
  xenDom0PreemptNs: r(0, 1e9),
  xenNetbackRxQueuePackets: int(1, 1_000_000),
  // at least one full-size frame: a smaller queue would stop the vif before any packet
  xenNetbackRxQueueBytes: int(1_514, 2 ** 31 - 1),
  xenNetbackTxBatch: int(1, 256),
  xenNetbackTxBatchNs: r(0, 1e6),
  xenDom0RxPacketNs: r(0, 1e6),
  xenDom0WakeNs: r(0, 1e9),
  xenDom0WakeSpreadNs: r(0, 1e9),
  xenNetbackRxBatchNs: r(0, 1e6),
  xenNetfrontPacketNs: cpuNs,
  udpEchoLoopNs: cpuNs,
} satisfies Record<ParamName, ParamRange>;

const fmtBound = (x: number) =>
  Number.isInteger(x) && Math.abs(x) < 1e21 ? x.toLocaleString('en-US') : String(x);

/** How a parameter's range reads in a message: "an integer from 1 to 65,536 packets". */
export function describeParamRange(name: ParamName): string {
  const rg: ParamRange = PARAM_RANGES[name];
  const unit = MODEL_PARAMS[name].unit;
  return `${rg.integer ? 'an integer' : 'a number'} from ${fmtBound(rg.min)} to ${fmtBound(rg.max)} (${unit})`;
}

/** Why `value` cannot be `name`'s value, or null when it can. */
export function paramRangeError(name: ParamName, value: number): string | null {
  const rg: ParamRange = PARAM_RANGES[name];
  const bad =
    !Number.isFinite(value) || value < rg.min || value > rg.max || (rg.integer && !Number.isInteger(value));
  return bad ? `${value} is out of range: must be ${describeParamRange(name)}` : null;
}

/** The nearest value `name` may take (an integer where it must be one): for generators and tools. */
export function clampToRange(name: ParamName, value: number): number {
  const rg: ParamRange = PARAM_RANGES[name];
  const v = Math.min(rg.max, Math.max(rg.min, value));
  return rg.integer ? Math.round(v) : v;
}
