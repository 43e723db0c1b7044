/**
 * The experiment's suggested commands (its preset's `commands`) as one-click chips, offered while
 * nothing has run in it yet: in the empty terminal (terminal.tsx), and beside the chart the preset
 * opens on (charts-panel.tsx), where the eye lands on a phone after choosing the experiment.
 */
import { PRESETS } from '../scenario/presets';
import { useApp, useLab } from './context';

/**
 * The commands to offer now: the preset's, while this experiment has printed nothing, is loaded, has
 * no foreground job and is not embedded (an embed chooses its own chips); otherwise none.
 */
export function useSuggestedCommands(): readonly string[] {
  const idle = useApp(
    (s) =>
      s.terminal.chunks.length === 0 && !s.env.embed && !s.scenario.loading && s.terminal.foreground === null,
  );
  const presetId = useApp((s) => s.scenario.presetId);
  return idle ? (PRESETS.find((p) => p.id === presetId)?.commands ?? NONE) : NONE;
}
const NONE: readonly string[] = [];

/** The chips: a lead line, then one button per command that submits it as typed (`Run <cmd>`). */
export function CommandChips({
  commands,
  lead,
  className,
  testId,
  onRun,
}: {
  commands: readonly string[];
  lead: string;
  className: string;
  testId: string;
  /** after the command is submitted (the terminal puts the focus back in its Command box) */
  onRun?: () => void;
}) {
  const lab = useLab();
  return (
    <div className={className} data-testid={testId}>
      <span>{lead}</span>
      {commands.map((cmd) => (
        <button
          key={cmd}
          type="button"
          className="small"
          aria-label={`Run ${cmd}`}
          onClick={(e) => {
            e.stopPropagation();
            void lab.submit(cmd);
            onRun?.();
          }}
        >
          {cmd}
        </button>
      ))}
    </div>
  );
}
