import { useRouterState } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { useIntl } from '../lib/intl';

/** Below this, a navigation feels instant and a bar would only flicker. */
const SHOW_AFTER_MS = 150;

/**
 * A thin bar along the top of the window while a navigation waits for its data, so a slow click
 * visibly did something; the page itself stays as it was until the next one is ready.
 */
export function NavigationProgress() {
  const intl = useIntl();
  const loading = useRouterState({ select: (s) => s.status === 'pending' });
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    if (!loading) {
      setVisible(false);
      return;
    }
    const timer = setTimeout(() => setVisible(true), SHOW_AFTER_MS);
    return () => clearTimeout(timer);
  }, [loading]);
  if (!visible) return null;
  return (
    <div role="progressbar" aria-label={intl.formatMessage({ id: 'common.navigationProgress.label', defaultMessage: 'Loading page' })} className="fixed inset-x-0 top-0 z-50 h-0.5 overflow-hidden bg-indigo-100 dark:bg-indigo-950">
      <div className="h-full w-full origin-left bg-indigo-600 motion-safe:animate-progress-sweep dark:bg-indigo-400" />
    </div>
  );
}
