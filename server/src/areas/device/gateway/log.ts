/** What the gateway logs through (the server's pino logger fits). Never given secrets. */
export interface GatewayLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export const silentLogger: GatewayLogger = { info() {}, warn() {}, error() {} };
