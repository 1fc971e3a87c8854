/**
 * The run page's icon, served as `/assets/favicon.svg`: a terminal prompt.
 *
 * @example
 * ```ts
 * res.writeHead(200, { 'content-type': 'image/svg+xml' }).end(faviconSvg);
 * ```
 */
export const faviconSvg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#161b22"/><path d="M8 10l6 6-6 6" fill="none" stroke="#58a6ff" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/><path d="M16 23h8" stroke="#3fb950" stroke-width="3" stroke-linecap="round"/></svg>`;
