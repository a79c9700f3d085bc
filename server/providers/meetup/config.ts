/** The Meetup adapter's variables. */
import { credentialedUpstream } from '../../upstream/upstream-config.ts';

export const MEETUP_DEFAULT_URL = 'https://api.meetup.com/gql-ext';

export interface MeetupConfig {
  /** `MEETUP_API_URL`, default Meetup's GraphQL endpoint. */
  url: string;
  /** `MEETUP_ACCESS_TOKEN`, an OAuth2 access token sent as `Authorization: Bearer …`; never logged. */
  accessToken: string;
}

/** null when `MEETUP_ACCESS_TOKEN` is unset (the adapter is off); a ConfigError naming the variable for a bad value, or for a URL without a token. */
export function meetupConfig(env: NodeJS.ProcessEnv): MeetupConfig | null {
  const upstream = credentialedUpstream(env, { keyName: 'MEETUP_ACCESS_TOKEN', urlName: 'MEETUP_API_URL', defaultUrl: MEETUP_DEFAULT_URL, needs: 'Meetup needs an access token' });
  return upstream && { url: upstream.url, accessToken: upstream.key };
}
