import { useQuery } from '@tanstack/react-query';
import { buttonClass } from '../../../components/button';
import { signInProvidersQueryOptions, singleSignOnHref } from '../api/single-sign-on';

/**
 * "Sign in with <provider>" for each identity provider of this server: plain links, since signing in
 * through one leaves the app for the provider's own page. Nothing when there are none.
 */
export function SingleSignOnButtons() {
  const providers = useQuery(signInProvidersQueryOptions());
  if (!providers.data || providers.data.length === 0) return null;
  return (
    <ul className="space-y-2" aria-label="Single sign-on">
      {providers.data.map((provider) => (
        <li key={provider.id}>
          <a href={singleSignOnHref(provider.id)} className={buttonClass('secondary', 'w-full')}>
            Sign in with {provider.name}
          </a>
        </li>
      ))}
    </ul>
  );
}
