/**
 * Every rule core implements, with an id that tests name. `requirements.test.ts` fails when a
 * rule here has no test that verifies it, and when a test names an id that is not here.
 */
export const REQUIREMENTS = {
  'CFG-DEFAULTS': 'every variable of spec §2.5 has its documented default',
  'CFG-TYPES': 'numbers, booleans and enumerations are checked, with messages that say what is accepted',
  'CFG-EMPTY-IS-UNSET': 'an empty or blank value counts as unset',
  'CFG-ALL-AT-ONCE': 'all problems are reported in one error, each naming its variable',
  'CFG-DB-REQUIRED': 'DATABASE_URL is required in every profile; the message names the active profile (spec §7)',
  'CFG-DB-URL': 'an invalid DATABASE_URL or unknown scheme fails, naming the profile, never echoing a password (spec §7)',
  'CFG-DB-ENGINES': 'postgres://, postgresql://, pglite://<dir> and pglite://memory select the engine',
  'CFG-DB-READ':
    'DATABASE_READ_URL is off unless set; set, it must name a PostgreSQL standby (not pglite://, not the primary itself) with a valid lag bound, and no error or loaded configuration repeats its password',
  'CFG-PROFILE-MEMORY': 'DEPLOYMENT_PROFILE=memory is rejected with guidance to choose lite or standard (spec §7, §9.1)',
  'CFG-PROFILE-ALIAS': 'enterprise is accepted as a deprecated alias of standard, with a warning (spec §1.5)',
  'CFG-PROFILE-UNKNOWN': 'any other profile is rejected',
  'CFG-OLLAMA-SCHEME': 'OLLAMA_URL without a scheme, or invalid, fails (spec §7)',
  'CFG-JWT-SECRET': 'AUTH_REQUIRED=true needs JWT_SECRET of at least 32 characters (spec §5.3, §7)',
  'CFG-JWT-EXPIRES': 'JWT_EXPIRES_IN takes 7d, 24h, 30m, 3600s or seconds; anything else fails',
  'CFG-MERGE-BELOW-DUP': 'MEMORY_CONSOLIDATION_MERGE_THRESHOLD must be strictly below MEMORY_DUPLICATE_THRESHOLD (spec §7)',
  'CFG-CONTRADICTION-BAND': 'the contradiction band [min, max) must not be empty',
  'CFG-RATE-OVERRIDES': 'RATE_LIMIT_TOOL_OVERRIDES must be a JSON map of {limit, windowSeconds}',
  'CFG-RATE-LITE': 'the rate limiter is standard-profile only (spec §8)',
  'CFG-HNSW-BOUNDS': "HNSW settings and VECTOR_DIMENSIONS are checked against pgvector's limits at boot",
  'CFG-MODEL-DIMS': 'a model whose vectors exceed the HNSW limit needs VECTOR_DIMENSIONS',
  'CFG-OPENAI-NO-KEY': 'EMBEDDING_PROVIDER=openai without a key is not an error (spec §7)',
  'CFG-OAUTH-PAIR': 'an identity provider is enabled only when both its id and secret are set (spec §5.5)',
  'CFG-OAUTH-LOGIN': 'an enabled login needs OAUTH_REDIRECT_BASE_URL and a JWT_SECRET on standard; lite ignores logins with a warning',
  'CFG-OAUTH-METADATA-HOSTS':
    'OAUTH_CLIENT_METADATA_ALLOWED_HOSTS lists host names (no scheme, port or path) whose client metadata documents may be fetched from private addresses; none by default',
  'CFG-TRUSTED-PROXIES': 'MEMSVC_TRUSTED_PROXIES lists IP addresses or CIDR ranges; anything else fails naming the entry',
  'CFG-ALLOWED-HOSTS': 'MEMSVC_ALLOWED_HOSTS lists host names, optionally with a port, or *; anything else fails naming the entry',
  'R-ORIGIN-LOOPBACK':
    'a server bound to loopback answers only loopback Host names (any case, IPv4 or [::1]) on its own port, and only loopback or configured page origins',
  'R-ORIGIN-CONFIGURED':
    "a server bound beyond loopback answers loopback names, IP literals, its public URLs' hosts and MEMSVC_ALLOWED_HOSTS; pages only from their own origin, a public URL or CORS_ALLOWED_ORIGINS",
  'R-ORIGIN-NO-HEADER':
    'a request without an Origin (an agent, a CLI) is judged by its Host only; Origin null (unless the browser says Sec-Fetch-Site: same-origin) or a non-http origin is refused',
  'R-ORIGIN-REASON': 'every refusal names the refused value and the setting that would allow it',
  'CFG-DEV-AUTH-PROD': 'MEMSVC_DASHBOARD_DEV_AUTH is refused in production',
  'CFG-IMPORT-ROOT': 'IMPORT_ALLOWED_ROOT defaults to the home directory and must be absolute',
  'CFG-UNKNOWN-VAR': 'unknown MEMSVC_* variables are reported as likely typos',
  'CFG-SECRETS': 'secrets never print: not as strings, JSON or util.inspect (spec §5.8)',
  'CFG-FROZEN': 'the loaded configuration is deeply frozen',
  'CFG-HTTP-GATE': 'standard + streamable-http refuses to boot without AUTH_REQUIRED or ALLOW_UNAUTHENTICATED_HTTP (spec §5.4)',
  'R-DUP-EXACT': 'identical normalised content collapses into the existing row, even without vectors (DESIGN §3)',
  'R-DUP-1': 'similarity ≥ MEMORY_DUPLICATE_THRESHOLD collapses into the existing row (spec §3.2 rule 1)',
  'R-CONTRA-1': 'similarity in [MEMORY_CONTRADICTION_THRESHOLD, MEMORY_CONTRADICTION_THRESHOLD_MAX) is a contradiction (spec §3.2 rule 2)',
  'R-CONTRA-FLAG':
    'policy flag: the new memory and each it contradicts are marked contradicted, both stay visible, linked contradicts both ways, audited contradiction-flag',
  'R-CONTRA-SUPERSEDE':
    'policy supersede: each contradicted memory is hidden behind the new one (supersedes / superseded-by links), audited supersede; latest wins',
  'R-DUP-RACE': 'two concurrent identical writes leave one row',
  'R-WRITE-TIERS': 'a short-term write is compared with both tiers; a long-term write and a promotion with long-term memories only',
  'R-PROMOTE-COLLAPSE':
    'a promotion that duplicates a long-term memory deletes the short-term row (audited promote-collapse) and reports the existing one; otherwise the row turns long-term in place',
  'R-RECALL-RANK':
    'recall ranks by score fusion of the vector and full-text lists, each weighed by how informative it is for the query, nudged by importance and recency',
  'R-RECALL-FOLLOW-UP':
    'a conversation turn is lifted by how well the turns after it match the query, never above 1, never lowered; forget deletes by a memory’s own match',
  'R-RECALL-REPLY':
    'a conversation turn right after a question turn is lifted by how well that question matches the query (its reply), never above 1, never lowered',
  'R-RECALL-ASKING': 'a memory that asks a question (a question mark) ranks ASKING_DISCOUNT lower; its matchScore stays its own match',
  'R-RECALL-SPEAKER':
    'when a query names the speaker of some candidates, memories said by anyone else rank NAMED_SPEAKER_BOOST lower; a query naming no speaker changes nothing',
  'R-RECALL-LEAN-HIT':
    'a recall hit carries its id, its text (the passage that matched, with `excerpt`, for a long memory), when it was said, how long ago and its score, plus only the marks that apply (replacedBy, replaces, shared, short-term type, scope, tags, contradicted, supersededBy): no null field and nothing of the record that get_memory returns',
  'R-RECALL-EXPLAIN':
    "recall with explain gives each hit its place in each candidate list (full-text rank and BM25, vector rank and similarity), its fused match and every adjustment that moved its score, in order: applied from the fused match they end at the hit's score",
  'R-CONTEXT-PACK': 'context blocks frame memories as untrusted data and never exceed their character or token budget',
  'R-REMEMBER-TIER': 'remember with type auto keeps notes about the moment short-term, the rest long-term',
  'R-WRITE-FAST':
    'below the lowest band edge no neighbour changes the decision, so a store may insert in the statement that finds the candidates',
  'R-PROMOTE-1':
    'a live short-term memory qualifies for promotion at STM_CONSOLIDATION_ACCESS_THRESHOLD reads, and the importance threshold when set (spec §3.2 rule 4)',
  'R-DECAY-1':
    'the decay scan recomputes importance, marks stale at or below the threshold, prunes only old unpinned memories below the prune threshold',
  'R-MERGE-1': 'corpus consolidation merges pairs in [MEMORY_CONSOLIDATION_MERGE_THRESHOLD, MEMORY_DUPLICATE_THRESHOLD), edges exact',
  'R-MERGE-2': 'the canonical memory of a cluster: highest importance score, then pinned, then newest, then larger id',
  'R-MERGE-3': 'contradicted, superseded, deleted or short-term memories never merge; clusters never cross tenants or scopes',
  'R-REINDEX-1': 'reindex batch size is 1–1000, the cursor a memory id, maxMemories a positive whole number; errors name the field',
  'R-REINDEX-2': 'recreate is refused on a scoped run (userId, cursor or maxMemories), never silently ignored',
  'R-JOB-1': 'reindex job transitions: only queued or running jobs cancel, only failed or cancelled jobs retry; others are CONFLICT',
  'R-IMPORTANCE': 'importance combines explicit importance, recency (half-life) and access; pinned ≥ 0.9 (spec §2.1)',
  'R-STALE-PRUNE':
    'stale at or below the stale threshold; prune-eligible below the prune threshold, old enough, unpinned (spec §3.2 rule 3)',
  'R-TEMPORAL-FORMAT': 'a search date writes the UTC calendar day as "8 May 2023", "May 2023" and "2023-05-08"',
  'R-TEMPORAL-RESOLVE':
    'relative time in a turn (yesterday, 3 weeks ago, last Friday, last summer…) resolves to absolute dates from the turn’s UTC day, in order, once each',
  'R-TEMPORAL-SAFE': 'resolving relative time is linear in the text, and safe on untrusted text of 10,240 characters',
  'R-LEX-BM25':
    'the full-text list is Okapi BM25 over the tenant’s own statistics (document frequency, length, average length); context words count contextWeight',
  'R-LEX-BOUNDED':
    'a query uses at most maxQueryTerms terms, rarest first, reads them whole within postingBudget and at most postingsPerTerm postings of each past it',
  'R-QUERY-NOISE': 'question words, auxiliaries, modals and pronouns are not ranking terms; names, numbers and months are',
  'R-SEARCH-CONTEXT':
    'a memory is indexed with its date (and the absolute dates of its relative ones), speaker, previous turn, scope, tags and metadata words; content stays as written',
  'R-EXPORT-DETERMINISTIC':
    'an export line holds every stored field in a fixed key order, free-form JSON in canonical order, no tenant and no database audit id: the same rows give the same bytes (issue 17)',
  'R-EXPORT-BOUNDED':
    'an export page ends at its limit (≤ 2,000) or its byte budget (≤ 4 MB), never empty, and its cursor resumes after the last memory written',
  'TENANT-ID': 'tenant ids accept real-world user ids (hyphens, emails) and reject the rest with INVALID_INPUT',
  'AUTH-SCOPES':
    'scopes parse from a comma-separated list: trimmed, repeats dropped, in canonical order; an unknown scope or an empty list is INVALID_INPUT naming the field and the allowed values',
  'AUTH-KEY-FORMAT':
    'an API key is msk_ and 43 base64url characters of 32 random bytes; only its SHA-256 (hex) and its first 12 characters are stored',
  'AUTH-KEY-USABLE':
    'a key is found by its hash only while usable: not revoked, not expired; revoking is idempotent and keeps the first revocation time',
  'AUTH-KEY-INPUT':
    'a key needs a name of 1–100 characters, known scopes, a future expiry and an existing organization; bad input is refused naming the field and writes nothing',
  'AUTH-KEY-SCOPES-HELD':
    "a key is given only scopes its maker holds (a dashboard viewer their session's, an operator at the database all), whichever surface mints it; a scope withheld is refused naming it",
  'AUTH-KEY-TENANT': "listing one user's keys never shows another's",
  'AUTH-KEY-SESSIONS': 'revoking an API key ends the sessions exchanged for it, in the same transaction, and no other session',
  'AUTH-LIVE-ISSUE':
    'a session or a key is issued only from a credential live at the moment of issue: the parent key or session is re-read and locked in the issuing transaction, so one revoked while a request was in flight issues nothing',
  'AUTH-KEYS-MANAGE':
    "managing keys and sessions on the dashboard needs the keys:manage scope: an agent's key, or a session made from one without it, cannot mint or revoke",
  'AUTH-KEYS-LITE': 'on lite no per-agent API key is made, on any surface: the refusal comes before a key is minted (spec §5.5)',
  'AUTH-KEYS-FRESH': 'making or revoking a key, or ending sessions, needs a sign-in from the last ten minutes',
  'AUTH-KEYS-SESSION-BOUND':
    'a key made in a session expires no later than the session and is revoked when the session ends (logout, every session ended, or its key revoked)',
  'OAUTH-DISCOVERY':
    'with OAUTH_REDIRECT_BASE_URL set, /.well-known/oauth-protected-resource (and its /mcp path-inserted form) and /.well-known/oauth-authorization-server describe the resource and the authorization server (S256 only, CIMD, registration, iss, public clients); every 401 of /mcp carries resource_metadata and scope',
  'OAUTH-STEP-UP':
    'a single tools/call whose tool needs a scope an OAuth token lacks is refused before dispatch with 403 and WWW-Authenticate error="insufficient_scope" naming the scopes',
  'OAUTH-REDIRECT-URI':
    'redirect URIs are compared exactly (a trailing slash differs) but for the port of a loopback http redirect (RFC 8252); javascript:, data:, fragments, credentials and non-loopback http are refused at registration',
  'OAUTH-PKCE':
    'authorize needs a PKCE S256 challenge (none or plain is refused); the token request must present the verifier that matches it',
  'OAUTH-CODE-ONCE':
    'authorization requests and codes are stored only as hashes, bound to client, redirect URI, PKCE challenge, resource and scopes, expire by the clock, and are consumed at most once, even by racing requests; a code presented again revokes the tokens its first use obtained',
  'OAUTH-REFRESH-ROTATION':
    'refresh tokens are stored hashed and rotated on every use; presenting a rotated one revokes the family and the live access tokens issued from it',
  'OAUTH-AUDIENCE':
    "OAuth access tokens are session JWTs whose audience is this server's MCP resource; /mcp refuses a token signed with our secret for another audience, and API-key sessions (aud memsvc-api) keep working",
  'OAUTH-CIMD':
    'a client metadata document is fetched with a timeout and a size cap, only from public addresses (every resolved address checked, the connection made to the checked one) unless its host is allowed by OAUTH_CLIENT_METADATA_ALLOWED_HOSTS, and must name its own URL as client_id',
  'OAUTH-DCR':
    'dynamic client registration takes a size-capped JSON body, registers a public client, and refuses bad metadata with invalid_redirect_uri or invalid_client_metadata, storing nothing',
  'OAUTH-CONSENT':
    'the authorize page is served with a strict CSP and frame-ancestors none, escapes all client-supplied text, needs a CSRF token bound to the browser, and grants at most the scopes the signer holds',
  'AUTH-ORG': 'organizations have a unique slug; an owner is added with the organization; a member has one role, owner, admin or member',
  'RATE-BUCKETS':
    'a call counts against its user and organization buckets when authenticated, its IP bucket otherwise, plus a bucket of its own for a tool with an override (spec §8)',
  'RATE-WINDOW':
    'fixed windows are aligned to the epoch; a refusal says to retry when the refusing window ends, in whole seconds, at least 1',
  'RATE-TAKE':
    'a call is admitted only if every bucket has room in its window and is then counted in all of them; a refused call is counted in none',
  'RATE-RACE': 'concurrent calls, on one or several replicas, never admit more than a limit',
  'RATE-INPUT':
    'a bucket with an empty key or a limit or window that is not a positive whole number is INVALID_INPUT naming the field; nothing is counted',
  'IMPORT-SOURCES':
    'each import source selects only its own files from a folder (claude-code, codex, cursor, copilot, gemini, markdown) and tags every section with its source, file kind and folder; provenance names the source, file, section anchor and line (issue 17)',
  'IMPORT-SPLIT':
    'files split at # and ## headings outside code fences, keep the preamble, drop empty sections, and no section exceeds the memory content limit (parts cut at paragraphs, code re-fenced)',
  'IMPORT-FILE-FAILURE':
    'broken frontmatter, binary or oversized content, a path outside the folder or a file the source does not own fail that file alone with a clear message and no sections',
  'IMPORT-SECRETS':
    'the scanner finds every documented secret pattern by name and offsets, never returning the value; near misses (a bare word, a placeholder, an env var name) are not flagged',
  'IMPORT-SECRETS-POLICY':
    'redact (default) replaces findings in every field with [REDACTED:<pattern>], flag keeps text and names the patterns, skip drops the section, fail returns nothing and fail: true',
  'R-REPLICA-ROUTE':
    'with a read replica, recall, list, audit and links are served by the standby; writes and reads that count an access go to the primary',
  'R-REPLICA-RYW':
    'a tenant never reads from a standby that has not replayed its own last write (read-your-writes); other tenants do not wait for it',
  'R-REPLICA-LAG':
    "a standby's lag is the age of the oldest primary position it has not replayed (an idle primary does not make it look old); far behind, it serves nothing",
  'R-REPLICA-FALLBACK':
    'a standby that is down, at boot or mid-run, never fails a read: reads go to the primary with a warning, and the standby serves again once it is back',
  'R-REPLICA-FAILING-READS':
    'a standby whose reads keep failing while it answers its checks serves nothing for a pause that grows while the failures go on; each failed read is answered by the primary',
  'R-REPLICA-PROMOTED':
    'a DATABASE_READ_URL that is a primary, or is promoted, is refused (a boot error naming the variable, or it stops serving with a warning), never serving a stale or diverging read',
  'R-SCOPE-CONTENT':
    'a caller without memories:read gets no memory content, tags, metadata or scope from any tool, nor the id of a memory found by similarity to its text: ids it named or wrote, outcomes and counts only (issue 37)',
  'R-SCOPE-READ-UNCHANGED':
    'a caller holding memories:read (the anonymous caller and the pre-shared key hold every scope) sees every result as before',
  'R-EDGE-IPV6-NETWORK':
    'the per-address limit counts an IPv6 client by its network of RATE_LIMIT_IPV6_PREFIX bits (default /64) and an IPv4-mapped IPv6 address as its IPv4 address (issue 37 #8)',
  'R-EDGE-IPV6-CONFIG': 'RATE_LIMIT_IPV6_PREFIX is a whole number from 1 to 128, default 64; anything else is refused naming the variable',
  'R-EDGE-MCP-AUTH-AFTER-BODY':
    '/mcp checks the credential once the body has arrived, so a key revoked or a session logged out before then runs nothing (401); a request with no bearer token is refused before its body is read (issue 37 #1)',
  'R-EDGE-JSON-DEPTH':
    'a /mcp body whose arrays and objects nest deeper than 64 levels is refused (400, -32600) by a scan of its bytes as they arrive, before any parsing (issue 37 #6)',
  'R-EDGE-REFUSED-BODY-COUNTED':
    'a /mcp request refused for its body (too large, too deep, not JSON) counts against its caller: the user of a valid credential, the address otherwise (issue 37 #6)',
  'R-EDGE-SECURE-COOKIES':
    'dashboard cookies (the session is also a /mcp bearer) are Secure unless NODE_ENV is development, HOST is loopback and no configured URL is HTTPS (issue 37 #7)',
  'R-METADATA-MERGED':
    'an update is checked on the metadata it stores (current merged with the patch): over the 64 KiB limit it is INVALID_INPUT naming metadata, with the merged size and the limit, and writes no version and no audit row (issue 37 #5)',
  'R-AUDIT-CHANGED-FIELDS':
    "an audit entry's before holds only the fields the change touched, its after the memory as the change left it (the snapshot a restore reads), so a small edit of a large memory adds one copy, not two (issue 37 #5)",
  'R-AUDIT-RETAINED':
    "a memory's newest AUDIT_LIMITS.snapshotsPerMemory audit entries keep their before and after; older ones keep actor, action, version, time and the names of the fields they changed, so a memory's audit stays bounded; a version past the window no longer restores (NOT_FOUND) (issue 37 #5)",
  'R-METADATA-MERGED-TAGS':
    "a corpus merge's union of its members' tags keeps at most the tag limit (50), the canonical memory's tags first (issue 37 #5)",
  'R-IDENTITY-EMAIL':
    "a linked GitHub or Google account logs in to its user only while its verified email is still that user's address; otherwise the login is refused (403, ask the operator) and no one is moved to another tenant's data (issue 37 #2)",
  'R-IDENTITY-PINNED': 'an account an operator linked to a user (memsvc identities link) logs in to that user whatever its email',
  'R-IDENTITY-BLOCKED':
    "a blocked account cannot log in (403) until unblocked; blocking, unlinking or moving an account ends its user's live GitHub and Google sessions at once",
  'R-IDENTITY-UNLINK': "an unlinked account's next login links it afresh by its verified email, like a first login",
  'R-IDENTITY-SHUT-OUT':
    'the documented steps (keys revoke --user, sessions revoke --user, identities block for each of their accounts) shut a person out: no key, session, GitHub or Google login gets in',
  'R-FACT-DETECT':
    "a newer memory that keeps an older one's subject and relation (its words, or a named thing both name) and swaps a value for another is a changed fact; memories that only share words (two people's cities, two services' ports, an addition, two dated events, one template about two things) are not (issue 38 #1)",
  'R-FACT-WRITE':
    'a write that changes the fact of a live memory of the same tenant and scope (found among its vector and lexical neighbours) marks the older one replacedBy the new one, visible, audited as fact-change and linked supersedes/superseded-by, in the same transaction; the spec §3.2 bands are unchanged (issue 38 #1)',
  'R-FACT-ORDER':
    'recall puts a replacement before the memory it replaced, marked at write time or detected among the candidates, and brings it when the query did not find it; the older one is labelled replacedBy (issue 38 #1)',
  'R-FACT-RELATED':
    'remember and create_memory return the live memories the write may update or contradict (id, content, when, why, reason): the changed facts and contradictions first, then candidates of the same subject that share a topic, words or a kind of value, or that an acquisition or a finished event may change; at most 5; callers without memories:read do not see them (issue 38 #2)',
  'R-FACT-NEWER-FIRST':
    "when recall finds a memory and a newer one of the same scope that a write would list as related, the newer is read first when it says every word of the query the older says (or its topic), replaces a word of the older, adds nothing beside it and names no other thing of the speaker's; the older is neither marked nor hidden; an event told in the past, look-alikes asked about by what only the older says, and conversation turns keep their order",
  'R-FACT-DONE':
    'a thing told as going on ("I\'m training for the Boston marathon") is a changed fact when a later statement of the same speaker tells it as done, saying a name of it or two of its words; a past event sharing one word is not',
  'R-FACT-TOPIC':
    'a change said with another verb ("I live in Paris" / "I moved to Berlin") is a changed fact when both are about one subject (no one of theirs), name one topic, the newer says a verb that changes it in the past, and a new name replaces the older\'s; a visit, a second one, an addition or someone else\'s move is not',
  // Issue 38, Deliver 5 (a default user on lite) and Deliver 3 (time in everything an agent reads).
  'R-LITE-USER-DEFAULT':
    'on lite, a call without userId acts as MEMSVC_DEFAULT_USER_ID, or "me" when it is unset; standard keeps no default (spec §5.1)',
  'R-LITE-USER-CALL': 'on lite, a memory tool called without userId stores and recalls for the default user, in process and over stdio',
  'R-TIME-AGO':
    'how long ago is counted from the server clock\'s now in the largest whole unit (just now, minutes, hours, days to two weeks, weeks to two months, months, years); a later instant reads "in …"',
  'R-PGLITE-SHARED':
    'a pglite:// directory is shared by every memsvc process of its OS user: one hosts it over an owner-only Unix socket in the directory, the others attach through the same store code as PostgreSQL, and when the host goes one of them takes over with every acknowledged write',
  'R-PGLITE-SOCKET-UNITS':
    'the host serves connections a unit at a time (up to a Sync or a simple Query), and only the connection in a transaction while it is open; a connection that leaves mid-transaction is rolled back',
  'R-RECALL-PASSAGE':
    'a memory over 1,000 characters found by a query is shown by the passage of at most 600 characters (whole sentences or lines) that covers the most query words, rarer words of the memory weighing more, with its offsets and "…" where cut; recall returns it as the hit\'s text (with its excerpt offsets) unless fullContent; prompt_context and compress_context pack it with an excerpt marker',
  'R-TIME-SAID':
    "recall hits, prompt_context, load_context, compress_context and reflect show when each memory was said (ISO 8601 to the minute, UTC) and how long ago; context blocks give the server's now",
  'R-TIME-REPLACED':
    'a memory is outdated when a live memory replaced it: its supersededBy, a supersedes/superseded-by link, or a later memory it is linked to by contradicts; a deleted or expired replacement replaces nothing',
  'R-TIME-CURRENT-FIRST':
    'what an agent reads puts the memory that replaced another right before it (moved up, or added when the list lacks it and its filters admit it), labels both with their ids, and keeps rank order otherwise',
  // Issue 52: recall decided once, one filter rule.
  'R-FILTER-ONE-RULE':
    'one rule decides whether a read admits a memory (core admitsMemory; store-pg filterMemories is its SQL, held to the same answers on the same rows on every store), and recall applies it to the replacements it adds: a recall for a tag or metadata never returns a replacement without them, and names it on the hit it replaced',
  'R-RECALL-ONE-PASS':
    'MemoryEngine.recall returns the final hits in one pass: ranked, each replacement right before what it replaced (write marker, link or read-time fact change) with at least its score, at most limit, dated, with passages and shared-space labels; the follow-up reads are batched (at most one read of links and one of memories per tenant and round)',
  'R-SUPERSEDES-RETIRE':
    'supersedes on remember, create_memory and update_memory retires the named memories in the same transaction: hidden from default reads, a new version, audited as supersede, linked supersedes / superseded-by, reported in the result, restorable',
  'R-SUPERSEDES-FOUND':
    "supersedes naming an unknown id, another tenant's memory, a deleted or an already superseded one is INVALID_INPUT naming supersedes, the same answer for each, and nothing is written",
  'R-SUPERSEDES-SELF':
    'a memory cannot supersede itself (update_memory naming its own id): INVALID_INPUT naming supersedes, nothing changed',
  'R-SUPERSEDES-LIMIT': 'supersedes names at most MAX_SUPERSEDES (20) memories; more is INVALID_INPUT naming supersedes, nothing changed',
  'R-SUPERSEDES-CYCLE':
    'superseding a memory that already supersedes this one (directly or through others) is INVALID_INPUT naming supersedes, nothing changed',
  'R-ASOF-VERSIONS':
    'recall, get_memory and list_memories with asOf answer from the versions current then: later edits, deletions and supersessions undone, later memories absent; the same on every store',
  'R-ASOF-INPUT': "asOf malformed, in the future or before the tenant's first memory is INVALID_INPUT naming asOf, nothing changed",
  'R-ASOF-TRIMMED':
    'a memory whose version of then was trimmed from the audit is left out of an asOf answer (never shown with later values) and counted as unavailable',
  'CFG-TOOL-SETS':
    'MCP_TOOL_SETS is a comma-separated list of tool sets (agent, memories, export, admin, connectors, or all); unset means agent, admin; an unknown name fails naming MCP_TOOL_SETS and the known sets',
  'R-TOOLS-OFFERED':
    'the server lists ping and the tools of the chosen sets only, an admin tool only when MCP_ADMIN_TOKEN is set; with MCP_TOOL_SETS unset every spec tool still runs when called by name; with sets chosen, a tool outside them is refused NOT_FOUND (an unlisted admin tool as FORBIDDEN, logged admin_auth_denied)',
  'R-TOOLS-OUTPUT': 'every tool declares an outputSchema and each of its results (errors included) validates against it',
  'R-TOOLS-SIZE': 'the default tools/list (lite, no MCP_ADMIN_TOKEN, default sets) is at most 20 KB',
  'R-TOOLS-RESOURCE':
    'a memory is the MCP resource memsvc://memories/{id}, read through the same tenant and scope checks as get_memory, its text fenced as untrusted data; memories are not listed as resources',
  'R-TOOLS-CONNECTORS':
    'the connectors set offers search ({results: [{id, title, url}]}) and fetch ({id, title, text, url, metadata}) as a ChatGPT connector expects, over recall and get_memory; off by default',
  'R-TOOLS-PROGRESS':
    'import_agent_memory, reindex_memories, consolidate_memories, consolidate_corpus and export_memories send notifications/progress when the call carries a progressToken, in process and over HTTP (as an SSE response)',
  'R-GRANT-READ':
    "a grantee's reads include a space shared with it only when it names it or chose it, each hit labelled with its owner; no other space of the owner is ever read",
  'R-GRANT-NONE': 'a user nothing is shared with reads, lists, changes and writes nothing of another tenant',
  'R-GRANT-WRITE': 'writes into a shared space need a read-write grant, stay inside that space and are audited as the grantee',
  'R-GRANT-END': 'a revoked or expired grant ends access at the next call; both sides list their grants',
  'R-GRANT-REFUSED':
    'a grant to oneself, to a malformed grantee id, with a past expiry, of a space one does not own, or passed on by a grantee is refused, naming the field, and writes nothing',
  'R-GRANT-STATISTICS':
    "a shared space is ranked by its owner's term statistics, and a tenant that shares nothing never changes another's ranking",
  'R-ERASE-EVERYWHERE':
    "after an erasure the erased text is in no column of any table (stems included), the ids only in the erasure's record and the audit's word-free events, and the receipt's check passes until something of them is put back",
  'R-ERASE-REFUSED':
    "erasing an id twice, another tenant's id or a memory reached through a grant, and restoring an erased memory, are refused with a typed error; nothing changes",
  'R-ERASE-USER':
    'a whole user is erased in batches under one record; a run cut short hides every memory at once and the next run completes it',
  'R-ERASE-REPLICA': 'a standby that has replayed an erasure holds neither the text nor the ids outside the record',
  'R-GRANT-SUPERSEDES':
    'a write made under a grant touches only memories inside the granted space: a supersedes naming any other memory of the owner is FORBIDDEN, naming supersedes, and writes nothing; duplicates, contradictions and changed facts are found only inside the space',
  'R-GRANT-NO-ENUMERATION':
    'granting to a user, organization or API key id that does not exist answers exactly as granting to one that does, so grant_access cannot tell which ids exist; the grant reaches that id once it exists',
  'OAUTH-CODE-REPLAY-ATOMIC':
    'a code is redeemed and its refresh family started in one transaction, and every access token is issued only while its family is live (read under a share lock): a replay racing the first exchange leaves no token of the code working',
  'OAUTH-REFRESH-REPLAY-ATOMIC':
    'an access token is issued from a refresh only while its family is live (read under a share lock that a revocation waits for): a refresh token used twice at once leaves no token of its family working',
  'OAUTH-REFRESH-VALIDATE-FIRST':
    'a refresh request is checked (client, resource, scope, consenting sign-in) before its token is used: a refusable request leaves the token usable and the grant alive',
  'OAUTH-CIMD-IPV6':
    'an IPv6 client_id host is public only inside global unicast 2000::/3 and outside every special-purpose range; IPv4-compatible ::a.b.c.d, IPv4-translated ::ffff:0:a.b.c.d, site-local fec0::/10 and unassigned space are refused',
  'OAUTH-AUTHORIZE-NO-REDIRECT':
    'a refused authorization request is shown as a 400 error page and never redirected to the client: every client is self-registered (dynamic registration or metadata document), so its redirect URI is not trusted before the person consents (RFC 9700 §4.11.2)',
  'AUTH-SESSION-AUDIENCE':
    'each verifier of a session JWT accepts only its own kind: the dashboard cookie, GET /auth/session and the consent page refuse an OAuth access token (aud the MCP resource); /mcp accepts sessions and access tokens',
  'OAUTH-CONSENT-SIGN-IN':
    'a GitHub or Google sign-in made on the consent page is good for that consent only: at most ten minutes, ended by the decision (approve or deny), refused by /mcp, the session endpoints and the dashboard; the grant it approves is ended with the person’s sessions',
  'R-ERASE-EVERY-VERSION':
    "erasing a memory removes the quotes of every version of it (not only the current one) from other memories' search contexts, postings and term statistics, and the receipt's check finds such a quote put back",
  'R-ERASE-USER-GRANTS':
    "erasing a whole user ends every grant the user gave or received and their defaults in the same erasure: no grantee sees the user's space names, and the receipt's check finds a grant row put back",
  'R-ERASE-QUOTE-WHOLE':
    "an erasure removes a quote of an erased memory only where it is a whole part of a search context: another memory's longer quote that it begins stays as written",
  // Issue 51: the shared directory's ownership and its socket's wire framing.
  'R-PGLITE-OWNER':
    'a pglite:// directory, its lock file and its socket are refused unless owned by the current OS user and not writable by group or others (the lock and socket never a symlink), naming the owner uid and the path; a new directory is created 0700; not checked on Windows',
  'R-PGLITE-WIRE-LENGTH':
    "the shared directory's host drops a connection whose start-up message is under 8 or over 10,000 bytes, or whose message length is under 4 or over PostgreSQL's 1 GiB - 1, with a warning and no content, and keeps serving the others",
  'R-ERASE-PGLITE-FILES':
    'after an erasure on a PGlite directory (and the compaction it runs), the erased text is in no file of the data directory: no table, index, TOAST, statistics or WAL segment, recycled ones included',
  'R-SHUTDOWN-BOUNDED':
    'after SIGTERM the server exits within MEMSVC_SHUTDOWN_TIMEOUT_MS (10 s by default), whatever its trace collector, its idle or silent connections, or a request still in flight do',
  'R-SHUTDOWN-NO-NEW-JOB':
    'a stopping server or worker starts no scheduled job after it logs that it is shutting down, not even one due at that moment',
  'R-SHUTDOWN-ACKED-WRITE': 'a write whose answer was sent before or during the stop is in the database when it is opened again',
  'R-SHUTDOWN-ABANDON-RETRYABLE':
    'a request still running at the shutdown deadline is cut without an answer and its write rolls back, so the client can retry it',
} as const;

export type RequirementId = keyof typeof REQUIREMENTS;

/** A test title that names the rule it proves: `[CFG-DB-REQUIRED] …`. */
export function verifies(id: RequirementId, title: string): string {
  return `[${id}] ${title}`;
}
