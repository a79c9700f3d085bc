/**
 * Which Meetup group a `socialnet/events` URL names: `https://www.meetup.com/<urlname>/`, with an
 * optional locale (`/de-DE/<urlname>/`) and the group's events tab (`/<urlname>/events/`,
 * `/events/past/`, `/events/calendar/`). Another host, or a meetup.com page that is not a group's
 * (the home page, `/find/`, an event's own page), is 422 `invalid_parameters`, before any call.
 */
import { meetupNotAGroupUrl, meetupUrlNotServed } from '../../../lib/error-messages.ts';
import { ProviderError } from '../types.ts';

const HOSTS = new Set(['meetup.com', 'www.meetup.com']);
const LOCALE = /^[a-z]{2}(-[A-Z]{2})?$/;
const URLNAME = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;
/** Meetup's own pages at the top level: not groups. */
const NOT_GROUPS = new Set([
  'about', 'account', 'api', 'apps', 'blog', 'cities', 'create', 'events', 'find', 'graphql', 'help', 'home', 'login',
  'lp', 'media', 'meetup_api', 'members', 'messages', 'notifications', 'pro', 'register', 'search', 'start', 'topics',
]);
/** What may follow the group's name: its page, or its events tab. */
const GROUP_TABS = new Set(['', 'events', 'events/past', 'events/calendar']);

/** The group's `urlname`, as `groupByUrlname(urlname)` takes it. */
export function groupUrlname(url: string): string {
  const parsed = URL.canParse(url) ? new URL(url) : null;
  const host = parsed?.hostname.toLowerCase() ?? url;
  if (parsed === null || !HOSTS.has(host)) throw new ProviderError('invalid_parameters', meetupUrlNotServed(host));
  const segments = parsed.pathname.split('/').filter((segment) => segment !== '');
  if (segments.length > 0 && LOCALE.test(segments[0]!)) segments.shift();
  const [urlname, ...tab] = segments;
  if (urlname === undefined || !URLNAME.test(urlname) || NOT_GROUPS.has(urlname.toLowerCase()) || !GROUP_TABS.has(tab.join('/').toLowerCase())) {
    throw new ProviderError('invalid_parameters', meetupNotAGroupUrl(url));
  }
  return urlname;
}
