import { defineArea } from '../../area.js';
import { postsaleMessages } from './messages.js';

/** The postsale area: the after-sales app's calls (messages only). */
export default /* @__PURE__ */ defineArea({
  name: 'postsale',
  messages: postsaleMessages,
});
