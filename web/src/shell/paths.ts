/** The signed-in home page (spec 2: / redirects here). */
export const HOME_PATH = '/wel/index';
