import { useQuery } from '@tanstack/react-query';
import { buttonClass } from '../../../components/button';
import { useIntl } from '../../../lib/intl';
import { signInProvidersQueryOptions, singleSignOnHref } from '../api/single-sign-on';

/**
 * "Sign in with <provider>" for each identity provider of this server: plain links, since signing in
 * through one leaves the app for the provider's own page. Nothing when there are none.
 */
export function SingleSignOnButtons() {
  const intl = useIntl();
  const providers = useQuery(signInProvidersQueryOptions());
  if (!providers.data || providers.data.length === 0) return null;
  return (
    <ul className="space-y-2" aria-label={intl.formatMessage({ id: 'auth.singleSignOn.buttonsLabel', defaultMessage: 'Single sign-on' })}>
      {providers.data.map((provider) => (
        <li key={provider.id}>
          <a href={singleSignOnHref(provider.id)} className={buttonClass('secondary', 'w-full')}>
            {intl.formatMessage({ id: 'auth.singleSignOn.signInWith', defaultMessage: 'Sign in with {provider}' }, { provider: <bdi key="provider">{provider.name}</bdi> })}
          </a>
        </li>
      ))}
    </ul>
  );
}
