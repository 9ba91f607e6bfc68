import type { IntlShape } from 'react-intl';
import type { PaidFeature } from '../../collections';

/** What a free workspace is told when it asks for a new upload request (reading its requests stays free), in the page's language. */
export function uploadRequestsFeature(intl: IntlShape): PaidFeature {
  return {
    heading: intl.formatMessage({ id: 'requests.paidFeature.heading', defaultMessage: 'Upload requests come with the paid plan' }),
    intro: intl.formatMessage({
      id: 'requests.paidFeature.intro',
      defaultMessage: 'An upload request is a link you send to anyone, so they can drop files straight into one of your collections without an account.',
    }),
    points: [
      [
        intl.formatMessage({ id: 'requests.paidFeature.noAccountTitle', defaultMessage: 'No account needed' }),
        intl.formatMessage({
          id: 'requests.paidFeature.noAccountText',
          defaultMessage: 'They open the link, give their name, and drop files and whole folders; big uploads resume where they stopped.',
        }),
      ],
      [
        intl.formatMessage({ id: 'requests.paidFeature.collectionTitle', defaultMessage: 'Straight into a collection' }),
        intl.formatMessage({
          id: 'requests.paidFeature.collectionText',
          defaultMessage: 'Each submission lands in its own folder of the collection you choose, named after the uploader and the date.',
        }),
      ],
      [
        intl.formatMessage({ id: 'requests.paidFeature.termsTitle', defaultMessage: 'On your terms' }),
        intl.formatMessage({
          id: 'requests.paidFeature.termsText',
          defaultMessage: 'A deadline, how many files and how much per submission, which file types; pause or close it at any time.',
        }),
      ],
    ],
    afterLapse: intl.formatMessage({
      id: 'requests.paidFeature.afterLapse',
      defaultMessage: 'If a paid plan has ended, its requests and their submissions stay readable here, but take no files until the plan is renewed.',
    }),
  };
}
