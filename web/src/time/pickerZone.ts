import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';
import { onDisplayZone } from './displayZone';

// With the timezone plugin loaded, antd's date pickers take "now" (the 此刻/Now button, today's cell) from
// `dayjs().tz()`, i.e. in the default zone: the server's display zone. Imported by the forms (formFields.tsx).
dayjs.extend(utc);
dayjs.extend(timezone);
onDisplayZone((zone) => {
  if (zone) dayjs.tz.setDefault(zone);
  else dayjs.tz.setDefault();
});
