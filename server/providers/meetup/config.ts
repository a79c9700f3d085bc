/** The Meetup adapter's variables. */
import { ConfigError } from '../../config-error.ts';
import { upstreamKey, upstreamUrl } from '../../upstream/upstream-config.ts';

export const MEETUP_DEFAULT_URL = 'https://api.meetup.com/gql-ext';

export interface MeetupConfig {
  /** `MEETUP_API_URL`, default Meetup's GraphQL endpoint. */
  url: string;
  /** `MEETUP_ACCESS_TOKEN`, an OAuth2 access token sent as `Authorization: Bearer …`; never logged. */
  accessToken: string;
}

/** null when `MEETUP_ACCESS_TOKEN` is unset (the adapter is off); a ConfigError naming the variable for a bad value, or for a URL without a token. */
export function meetupConfig(env: NodeJS.ProcessEnv): MeetupConfig | null {
  const accessToken = upstreamKey(env, 'MEETUP_ACCESS_TOKEN');
  const url = upstreamUrl(env, 'MEETUP_API_URL', MEETUP_DEFAULT_URL)!;
  if (accessToken === undefined) {
    if (env.MEETUP_API_URL?.trim()) throw new ConfigError('MEETUP_API_URL is set but MEETUP_ACCESS_TOKEN is not: Meetup needs an access token');
    return null;
  }
  return { url, accessToken };
}
