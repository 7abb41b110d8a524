import type { JSONRPCMessage, MessageExtraInfo, Transport, TransportSendOptions } from '@modelcontextprotocol/server';

/**
 * A transport in front of another, for toolsmith's wrappers (`GuardedTransport`,
 * `ClientRequestRouter`): the inner transport's handlers it already had keep running, as the SDK's
 * `Protocol.connect` does; what comes in goes through `receive`, what goes out through `send`, and a
 * subclass overrides the one it changes.
 */
export abstract class WrappingTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

  constructor(readonly inner: Transport) {
    const { onclose, onerror, onmessage } = inner;
    inner.onclose = () => {
      this.closed();
      onclose?.();
      this.onclose?.();
    };
    inner.onerror = (error) => {
      onerror?.(error);
      this.onerror?.(error);
    };
    inner.onmessage = (message, extra) => {
      onmessage?.(message, extra);
      this.receive(message, extra);
    };
  }

  /** A message from the peer: handed to the server, unless a subclass answers it itself. */
  protected receive(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    this.onmessage?.(message, extra);
  }

  /** Called when the inner transport closes, before the handlers are told. */
  protected closed(): void {}

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
