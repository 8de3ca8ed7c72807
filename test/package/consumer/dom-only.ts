// Type-checked in a project whose lib is only ES2022 and DOM, with skipLibCheck false: everything
// the browser-facing entries declare must compile there.
import * as wisp from "wisp-agent";
import * as testing from "wisp-agent/testing";

export const entries: [typeof wisp, typeof testing] = [wisp, testing];
