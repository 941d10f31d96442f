// The wording interface lives in core, so that modules outside the editor (the agent folder checks) use it too.
export { type L10n, plainL10n } from '../../core/l10n';
