/**
 * What the lab has to tell the user at the top of the page (the full lab and embed mode alike): a
 * notice (a worker restarted, an export failed …) that can be dismissed, and why a scenario could
 * not be loaded. Also the hook that puts the chosen theme on the document.
 */
import { useEffect } from 'react';
import { useApp, useAppStore } from './context';

export function Notices() {
  const store = useAppStore();
  const notice = useApp((s) => s.env.notice);
  const link = useApp((s) => s.env.noticeLink ?? null);
  const errors = useApp((s) => s.scenario.loadErrors);
  return (
    <>
      {notice ? (
        <div className="notice" role="alert">
          {notice}{' '}
          {link ? (
            <>
              <a href={link.href}>{link.label}</a>{' '}
            </>
          ) : null}
          <button type="button" onClick={() => store.setState((s) => ({ env: { ...s.env, notice: null } }))}>
            Dismiss
          </button>
        </div>
      ) : null}
      {errors.length > 0 ? (
        <div className="notice error" role="alert">
          This scenario could not be loaded: {errors.join('; ')}
        </div>
      ) : null}
    </>
  );
}

/** Keep `data-theme` on the document element in step with the store's theme; returns the theme. */
export function useThemeAttribute(): 'light' | 'dark' {
  const theme = useApp((s) => s.view.theme);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  return theme;
}
