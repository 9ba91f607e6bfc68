import { useIntl } from '../../lib/intl';

export function SkipLink() {
  const intl = useIntl();
  return (
    <a
      href="#main"
      className="sr-only focus:not-sr-only focus:fixed focus:start-4 focus:top-4 focus:z-50 focus:rounded-md focus:bg-white focus:px-4 focus:py-2 focus:text-sm focus:font-medium focus:shadow-lg dark:focus:bg-zinc-900"
    >
      {intl.formatMessage({ id: 'layout.skipToContent', defaultMessage: 'Skip to content' })}
    </a>
  );
}
