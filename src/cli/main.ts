/**
 * `npm run lab -- [options] -- "COMMAND" ["COMMAND" ...]`: the headless lab from a terminal.
 *
 * Options: --client TYPE, --server TYPE, --placement cluster|same-az|cross-az|internet|other-vpc,
 * --enhanced-networking on|off, --seed N, --json, --scenario FILE, --batch auto|N, --out DIR (where
 * files the tools wrote are copied). Commands run on the client unless prefixed `server:`.
 * Without commands, a scenario file's `script` runs line after line, or its `session` (v4: what
 * was typed in the lab's terminal) is typed again, each line at its simulated instant.
 * Exit code 0 when the lab ran (a command that fails prints its tool's error and the run goes on);
 * 2 with a one-line message on stderr for bad input; 1 when the model stopped making progress.
 * Each command's output is written when it ends; on a terminal a progress line shows the simulated
 * time of the one running. Control characters from a scenario are shown, not sent (terminalSafe).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  createLab,
  fileSize,
  InteractiveSession,
  LabSession,
  NoProgressError,
  type RunRecord,
  toBytes,
} from '../engine';
import { PLACEMENTS, parseScenario, SCENARIO_VERSION } from '../scenario/schema';
import { stripBom, terminalSafe } from './text';

const USAGE =
  'usage: npm run lab -- [--client TYPE] [--server TYPE] [--placement cluster|same-az|cross-az|internet|other-vpc] [--enhanced-networking on|off] [--seed N] [--batch auto|N] [--json] [--scenario FILE] [--out DIR] -- "COMMAND" ["COMMAND" ...]';

/**
 * A progress line on a terminal while a command runs ("iperf3 -c server -t 600: 12.0 s of 600 s
 * simulated"), redrawn at most 5 times a second and erased before output is written.
 */
class ProgressLine {
  private shown = false;
  private lastMs = 0;
  constructor(private readonly out: NodeJS.WriteStream | null) {}
  update(label: string): void {
    if (!this.out) return;
    const now = Date.now();
    if (now - this.lastMs < 200) return;
    this.lastMs = now;
    const cols = Math.max(20, (this.out.columns || 80) - 1);
    this.out.write(`\r\x1b[K${terminalSafe(label).slice(0, cols)}`);
    this.shown = true;
  }
  clear(): void {
    if (!this.out || !this.shown) return;
    this.out.write('\r\x1b[K');
    this.shown = false;
  }
}

function die(msg: string): never {
  process.stderr.write(`lab: ${msg}\n`);
  process.exit(2);
}

interface CliArgs {
  client?: string;
  server?: string;
  placement?: string;
  /** --enhanced-networking on|off: every instance's launch setting (default: on where the type offers it). */
  enhancedNetworking?: boolean;
  seed?: number;
  batch?: 'auto' | number;
  json: boolean;
  scenarioFile?: string;
  /** Where the files the tools wrote (`tcpdump -w`, `> out.txt`) are copied after the run. */
  outDir?: string;
  commands: string[];
}

export function parseCliArgs(argv: string[]): CliArgs | { error: string } {
  const a: CliArgs = { json: false, commands: [] };
  let i = 0;
  const need = (opt: string) => {
    const v = argv[++i];
    if (v === undefined || v === '--') throw new Error(`option ${opt} needs a value`);
    return v;
  };
  try {
    for (; i < argv.length; i++) {
      const t = argv[i]!;
      if (t === '--') {
        a.commands.push(...argv.slice(i + 1));
        break;
      }
      switch (t) {
        case '--client':
          a.client = need(t);
          break;
        case '--server':
          a.server = need(t);
          break;
        case '--placement': {
          const v = need(t);
          if (!(PLACEMENTS as readonly string[]).includes(v))
            throw new Error(`--placement must be one of ${PLACEMENTS.join(', ')} (got "${v}")`);
          a.placement = v;
          break;
        }
        case '--enhanced-networking': {
          const v = need(t);
          if (v !== 'on' && v !== 'off')
            throw new Error(`--enhanced-networking must be on or off (got "${v}")`);
          a.enhancedNetworking = v === 'on';
          break;
        }
        case '--seed': {
          const v = need(t);
          if (!/^\d+$/.test(v) || Number(v) > 0xffffffff)
            throw new Error(`--seed must be an integer from 0 to 4294967295 (got "${v}")`);
          a.seed = Number(v);
          break;
        }
        case '--batch': {
          const v = need(t);
          if (v === 'auto') a.batch = 'auto';
          else if (/^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 256) a.batch = Number(v);
          else throw new Error(`--batch must be "auto" or an integer from 1 to 256 (got "${v}")`);
          break;
        }
        case '--json':
          a.json = true;
          break;
        case '--scenario':
          a.scenarioFile = need(t);
          break;
        case '--out':
          a.outDir = need(t);
          break;
        case '-h':
        case '--help':
          throw new Error(USAGE);
        default:
          if (t.startsWith('-')) throw new Error(`unknown option ${t} (${USAGE})`);
          a.commands.push(...argv.slice(i));
          i = argv.length;
      }
    }
  } catch (e) {
    return { error: (e as Error).message };
  }
  return a;
}

export function main(argv: string[]): number {
  const args = parseCliArgs(argv);
  if ('error' in args) die(args.error);
  let doc: Record<string, unknown> = { version: SCENARIO_VERSION };
  if (args.scenarioFile) {
    let text: string;
    try {
      text = readFileSync(args.scenarioFile, 'utf8');
    } catch (e) {
      die(
        `cannot read scenario file ${args.scenarioFile}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
      );
    }
    try {
      doc = JSON.parse(stripBom(text));
    } catch (e) {
      die(`scenario file ${args.scenarioFile} is not valid JSON: ${(e as Error).message}`);
    }
    if (typeof doc !== 'object' || doc === null || Array.isArray(doc))
      die(`scenario file ${args.scenarioFile}: (root): a scenario must be a JSON object`);
  }
  const instances = (doc.instances as Array<{ name: string; type: string }> | undefined) ?? [
    { name: 'client', type: 'c7i.large' },
    { name: 'server', type: 'c7i.large' },
  ];
  if (args.client || args.server) {
    if (!Array.isArray(instances))
      die(`scenario file ${args.scenarioFile}: instances: must be an array to apply --client/--server`);
    const set = (name: string, type: string) => {
      const found = instances.find((x) => x && x.name === name);
      if (found) found.type = type;
      else instances.push({ name, type });
    };
    if (args.client) set('client', args.client);
    if (args.server) set('server', args.server);
  }
  if (args.enhancedNetworking !== undefined) {
    // off: every instance launches without it (a Nitro type refuses, as RunInstances does)
    for (const x of instances)
      if (x && typeof x === 'object')
        (x as { enhancedNetworking?: boolean }).enhancedNetworking = args.enhancedNetworking;
  }
  doc.instances = instances;
  if (args.placement) doc.placement = args.placement;
  if (args.seed !== undefined) doc.seed = args.seed;
  if (args.batch !== undefined) {
    // a non-object `settings` is left for the schema to report ("settings: expected object")
    const s = doc.settings;
    if (s === undefined) doc.settings = { batch: args.batch };
    else if (typeof s === 'object' && s !== null && !Array.isArray(s))
      doc.settings = { ...s, batch: args.batch };
  }
  const parsed = parseScenario(doc);
  if (!parsed.ok)
    die(`${args.scenarioFile ? `scenario file ${args.scenarioFile}: ` : ''}${parsed.errors.join('; ')}`);
  const scenario = parsed.scenario;
  const typed = args.commands.length > 0 ? [] : (scenario.session ?? []);
  if (typed.length > 0 && scenario.script.length > 0)
    die(
      'the scenario has both a script and a session (what was typed in the lab, with times): give commands after --, or keep one of the two',
    );
  const commands = args.commands.length > 0 ? args.commands : scenario.script;
  if (commands.length === 0 && typed.length === 0) die(`no commands given (${USAGE})`);
  const lab = createLab(scenario);
  const runs: RunRecord[] = [];
  const progress = new ProgressLine(process.stderr.isTTY ? process.stderr : null);
  // each command's output is written as it ends
  const show = (recs: RunRecord[]) => {
    progress.clear();
    for (const r of recs) {
      runs.push(r);
      if (args.json) continue;
      if (!r.continued)
        process.stdout.write(terminalSafe(`[ec2-user@${r.host} ~]$ ${r.line ?? r.command}\n`));
      process.stdout.write(terminalSafe(r.output.slice(0, r.output.length - r.stderr.length)));
      if (r.stderr) process.stderr.write(terminalSafe(r.stderr));
    }
  };
  let current = '';
  const onProgress = (nowNs: number) => {
    const fg = session?.foreground;
    if (!fg) return;
    const deadline = fg.job.deadlineNs();
    const of = Number.isFinite(deadline) && deadline > fg.startNs ? ` of ${fmtS(deadline - fg.startNs)}` : '';
    progress.update(`${current}: ${fmtS(nowNs - fg.startNs)}${of} simulated`);
  };
  let session: LabSession | null = null;
  try {
    if (typed.length > 0) {
      // the lab's terminal session (a shared link's): each line typed at its simulated instant
      const s = new InteractiveSession(lab);
      s.onRecords = (recs) => show([...recs]);
      for (const e of typed) {
        s.advance(e.atNs);
        if ('line' in e) s.submit(e.line);
        else s.interrupt();
      }
      // the last command runs to its end (the session's caps bound an unbounded one)
      while (s.foreground) {
        const before = s.nowNs;
        s.advance(before + 1e9);
        if (s.nowNs === before) break;
      }
      show(s.session.close());
    } else {
      session = new LabSession(lab, { onProgress });
      for (const line of commands) {
        current = line;
        show(session.run(line));
      }
      show(session.close());
    }
  } catch (e) {
    if (!(e instanceof NoProgressError)) throw e;
    progress.clear();
    process.stderr.write(`lab: ${e.message}\n`);
    return 1;
  }
  if (args.outDir) {
    // DIR/HOST/NAME for ~/NAME, DIR/HOST/tmp/NAME for /tmp/NAME
    for (const f of lab.files.all()) {
      const rel = f.path.startsWith('/home/ec2-user/')
        ? f.path.slice('/home/ec2-user/'.length)
        : f.path.slice(1);
      const dest = join(args.outDir, f.host, rel);
      try {
        mkdirSync(dirname(dest), { recursive: true });
        writeFileSync(dest, toBytes(f.file.data));
      } catch (e) {
        die(`cannot write ${dest}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
      }
      process.stderr.write(`lab: wrote ${dest} (${fileSize(f.file.data)} bytes)\n`);
    }
  }
  if (args.json) {
    const doc = {
      runs: runs.map((r) => ({
        host: r.host,
        command: r.command,
        startNs: r.startNs,
        endNs: r.endNs,
        exitCode: r.exitCode,
        output: r.output,
        result: r.result,
      })),
    };
    process.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
  }
  return 0;
}

const fmtS = (ns: number) => `${(ns / 1e9).toFixed(1)} s`;

let code: number;
try {
  code = main(process.argv.slice(2));
} catch (e) {
  // A bug in the lab, not bad input: one line, and the exit code sysexits.h gives internal errors.
  process.stderr.write(
    `lab: internal error: ${(e as Error)?.message ?? String(e)} (please report it with the command line)\n`,
  );
  code = 70;
}
process.exitCode = code;
