// The one seam between the client's HTTP transport and anything that decorates its HTTP requests (OAuth).
/** The subset of the platform `fetch` the client's HTTP transport calls, for every POST, GET and DELETE it sends. */
export type ClientFetch = (url: URL, init: RequestInit) => Promise<Response>;
