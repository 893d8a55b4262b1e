/** Names under which a verification's configuration stamp travels (sandbox-safe constants). */

/** Memo key holding the ConfigStamp of the process that started a workflow (copied to its children). */
export const CONFIG_STAMP_MEMO = 'verityConfig';

/** Header carrying that stamp to every activity, which the worker checks against its own configuration. */
export const CONFIG_STAMP_HEADER = 'verity-config';

/** Error type of a task refused because it was made under another configuration. */
export const CONFIG_MISMATCH_FAILURE = 'ConfigurationMismatch';
