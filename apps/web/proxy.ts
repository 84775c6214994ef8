/**
 * Next's proxy (formerly middleware): every page and asset answers only to the dashboard's own
 * names, so a page on a foreign name that DNS rebinding points at 127.0.0.1 cannot read the
 * dashboard either. The pages hold no secret today; the check keeps it so if one ever renders data
 * on the server. Page navigations from other sites stay allowed, so Origin is not checked here.
 */
import { NextResponse } from 'next/server';
import { hostRefusal } from './lib/request-guard';

export function proxy(request: Request): Response {
  return hostRefusal(request) ?? NextResponse.next();
}

export const config = {
  // /api/graphql checks Host itself (with Origin, type and size). It is left out here because Next
  // reads the whole body of every request its proxy sees before the route runs, which would defeat
  // the route's cap on the body. A body sent to a page never gets here: server.mjs refuses it first.
  matcher: '/((?!api/graphql).*)',
};
