/**
 * A React error boundary around one panel: a panel that throws while rendering shows what failed
 * in its own place, with "Try again", and the rest of the lab (terminal, clock, other panels)
 * keeps working, instead of React unmounting the whole page.
 */
import { Component, type ReactNode } from 'react';

interface Props {
  /** What the panel is, for the message ("the charts"). */
  name: string;
  children: ReactNode;
}

export class PanelBoundary extends Component<Props, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: unknown): { error: Error } {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <div className="notice error" role="alert">
        {`Showing ${this.props.name} failed (${error.message}); the rest of the lab goes on.`}{' '}
        <button type="button" onClick={() => this.setState({ error: null })}>
          Try again
        </button>
      </div>
    );
  }
}
