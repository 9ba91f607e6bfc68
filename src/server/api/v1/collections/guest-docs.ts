/** Text shared by the descriptions of the guest operations. */
export const GUESTS =
  'Guests are people invited to one collection by address: not members of the workspace, and they see only that collection. A guest signs in on the collection’s page with a one-time link mailed to their address (valid 15 minutes, used once), which gives them a session for that collection alone; they keep access whatever the visibility, for as long as they stay invited.';
export const NOT_FOUND = "Another workspace's collection, or a guest of another collection, answers `404 not_found`.";
