import { defineArea } from '../../area.js';
import { authMessages } from './messages.js';

/** The auth area: sign-in, guest registration and the public agreements (messages only; their calls are the server's). */
export default /* @__PURE__ */ defineArea({
  name: 'auth',
  messages: authMessages,
});
