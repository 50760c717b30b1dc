// A channel of PostgreSQL's LISTEN and NOTIFY as its owners see it: how it is opened, what it says
// about its connection, and what it offers. app/db/listen.server.ts opens one (openNotifyChannel);
// the process bus (app/services/process-bus.server.ts) links the instances over it, given the
// opener, since services reach the database only through the models.

/** What the channel tells its owner about its connection. */
export type ChannelStatus =
  /** Listening: the first time, or again after a loss (`reconnected`), on the server process `backendPid`. */
  | { state: "listening"; reconnected: boolean; backendPid: number; attempts: number }
  /** The connection was lost or could not be opened; the next try is in `retryInMs`. */
  | { state: "lost"; error: Error; retryInMs: number; attempts: number }
  /** Payloads given up: too large, refused by the server (not a lost connection), or pushed out of a full queue. */
  | { state: "dropped"; error: Error; count: number };

export type ChannelOptions = {
  url: string;
  /** A lowercase identifier: the channel's name on the server. */
  channel: string;
  /** Each notification's payload, in the order the server delivers them (this process's own too). */
  onNotification: (payload: string) => void;
  onStatus?: (status: ChannelStatus) => void;
  /** Names the connection in pg_stat_activity. */
  applicationName?: string;
  /** The first reconnection's delay (default 100 ms); each later one doubles it. */
  firstRetryMs?: number;
  /** The longest delay between two tries (default 5 s). */
  maxRetryMs?: number;
  /** How often an idle connection is checked with a SELECT 1 (default 15 s); 0 never. */
  heartbeatMs?: number;
  /** Bytes of payloads kept for sending while no connection is open or the last batch is out (default 8 MiB): the oldest go first. */
  maxQueuedBytes?: number;
};

export type NotifyChannel = {
  /** Sends the payload to every listener of the channel, this process included (queued if disconnected). */
  send(payload: string): void;
  /** Resolves when every payload sent so far has reached the server (or was dropped). */
  flushed(): Promise<void>;
  /** Resolves once the channel listens for the first time. */
  ready(): Promise<void>;
  /** Whether a connection listens now. */
  readonly listening: boolean;
  /** The server process of the listening connection (for pg_terminate_backend in tests), or null. */
  readonly backendPid: number | null;
  /** Sends what is queued (for at most `flushTimeoutMs`, default 2 s), then closes the connection for good. */
  close(flushTimeoutMs?: number): Promise<void>;
};
