export type { FakeGitHub, FakeGitHubEmail, FakeGitHubFailure, FakeGitHubOptions, FakeGitHubUser } from './fake-github.js';
export { DEFAULT_GITHUB_USER, startFakeGitHub } from './fake-github.js';
export type { FakeGoogle, FakeGoogleFailure, FakeGoogleOptions, FakeGoogleUser } from './fake-google.js';
export { DEFAULT_GOOGLE_USER, startFakeGoogle } from './fake-google.js';
