import { collectionFileOwner } from '../collections/file-owner.js';
import { FileOwners } from '../files/owners.js';
import { transferFileOwner } from '../transfers/file-owner.js';
import { vaultFileOwner } from '../vault/file-owner.js';

/** Every kind of thing that owns files, as the file engine sees it. The one place owners are registered. */
export const fileOwners = () => new FileOwners([transferFileOwner, collectionFileOwner, vaultFileOwner]);
