// What server/index.ts hands every loader and action besides the request.
declare module "@remix-run/node" {
  interface AppLoadContext {
    /** The caller's address as Express resolved it (see "trust proxy" in server/index.ts). */
    clientIp?: string;
  }
}

export {};
