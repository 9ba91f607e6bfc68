import { useIntl } from '../lib/intl';
import { useTheme } from '../lib/theme';

export function ThemeToggle() {
  const intl = useIntl();
  const { theme, toggle } = useTheme();
  const dark = theme === 'dark';
  return (
    <button
      type="button"
      onClick={toggle}
      aria-pressed={dark}
      title={
        dark
          ? intl.formatMessage({ id: 'theme.on', defaultMessage: 'Dark mode is on' })
          : intl.formatMessage({ id: 'theme.off', defaultMessage: 'Dark mode is off' })
      }
      className="inline-flex size-9 items-center justify-center rounded-md text-zinc-600 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800"
    >
      <span className="sr-only">{intl.formatMessage({ id: 'theme.label', defaultMessage: 'Dark mode' })}</span>
      {dark ? (
        <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="2">
          <path strokeLinecap="round" strokeLinejoin="round" d="M21 12.8A9 9 0 1 1 11.2 3a7 7 0 0 0 9.8 9.8z" />
        </svg>
      ) : (
        <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="2">
          <circle cx="12" cy="12" r="4" />
          <path
            strokeLinecap="round"
            d="M12 2v2m0 16v2M4.9 4.9l1.4 1.4m11.4 11.4 1.4 1.4M2 12h2m16 0h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4"
          />
        </svg>
      )}
    </button>
  );
}
