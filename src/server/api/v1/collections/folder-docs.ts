/** Text shared by the descriptions of the folder operations. */
import { ErrorSchema } from '../../../../contract/errors.js';

export const OUR_DESIGN = 'Our design: the spec shows only the creation of a folder.';
export const NAMES =
  'Names are cleaned like file names (control characters and bidirectional overrides removed, no slashes, not `.` or `..`) and are unique among siblings regardless of case: a clash answers `409 conflict` with `details.reason` `name_taken`.';
export const PATHS =
  '`path` is the slash-separated names from the top level and `depth` the number of folders above (0 at the top); a path longer than 1024 bytes is `400`.';
export const NOT_FOUND = "A folder of another collection, or another workspace's collection, answers `404 not_found`.";

export const nameTaken = {
  description: '`conflict` with `details.reason` `name_taken`: a sibling already has this name (compared regardless of case).',
  content: { 'application/json': { schema: ErrorSchema } },
};
