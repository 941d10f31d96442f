import { Disposable } from './disposable';
import { Emitter } from './event';

/**
 * A Disposable that tells when it is gone (a panel closed by the person or by its owner): `onDidDispose` fires
 * once, after everything it registered is released, and then ends its own subscriptions.
 */
export abstract class ObservableDisposable extends Disposable {
  private readonly _onDidDispose = new Emitter<void>();
  readonly onDidDispose = this._onDidDispose.event;

  override dispose(): void {
    if (this.isDisposed) return;
    super.dispose();
    this._onDidDispose.fire();
    this._onDidDispose.dispose();
  }
}
