import type { PaidFeature } from '../../collections';

/** What a free workspace is told when it asks for a new upload request (reading its requests stays free). */
export const uploadRequestsFeature: PaidFeature = {
  heading: 'Upload requests come with the paid plan',
  intro: 'An upload request is a link you send to anyone, so they can drop files straight into one of your collections without an account.',
  points: [
    ['No account needed', 'They open the link, give their name, and drop files and whole folders; big uploads resume where they stopped.'],
    ['Straight into a collection', 'Each submission lands in its own folder of the collection you choose, named after the uploader and the date.'],
    ['On your terms', 'A deadline, how many files and how much per submission, which file types; pause or close it at any time.'],
  ],
  afterLapse: 'If a paid plan has ended, its requests and their submissions stay readable here, but take no files until the plan is renewed.',
};
