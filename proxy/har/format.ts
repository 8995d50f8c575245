/**
 * HTTP Archive (HAR) 1.2, the parts assopay reads and writes: a browser's devtools, HTTP Toolkit,
 * mitmproxy, Postman and Insomnia save sessions in it. Fields of others' (`_resourceType`, …) are read
 * when they help and otherwise ignored; assopay's own are `_assopayId` (the interaction's id) and
 * `_assopayNotification` (what the recorder learnt of a notification the service sent).
 */
import type { NotificationRecord } from "../cassette/format.js";

export interface HarNameValue {
  name: string;
  value: string;
}

export interface HarPostData {
  mimeType: string;
  text?: string;
  params?: HarNameValue[];
  /** Not HAR 1.2's, written by some tools for a binary request body. */
  encoding?: string;
}

export interface HarRequest {
  method: string;
  url: string;
  httpVersion: string;
  cookies: HarNameValue[];
  headers: HarNameValue[];
  queryString: HarNameValue[];
  postData?: HarPostData;
  headersSize: number;
  bodySize: number;
}

export interface HarContent {
  size: number;
  mimeType: string;
  /** The body with its content coding undone; base64 when `encoding` says so. */
  text?: string;
  encoding?: string;
}

export interface HarResponse {
  status: number;
  statusText: string;
  httpVersion: string;
  cookies: HarNameValue[];
  headers: HarNameValue[];
  content: HarContent;
  redirectURL: string;
  headersSize: number;
  bodySize: number;
}

export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: HarRequest;
  response: HarResponse;
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
  comment?: string;
  /** Chromium's kind of request (`fetch`, `xhr`, `document`, `image`, `script` …), in its devtools' HARs. */
  _resourceType?: string;
  _assopayId?: number;
  _assopayNotification?: NotificationRecord;
}

export interface Har {
  log: {
    version: string;
    creator: { name: string; version: string };
    entries: HarEntry[];
    comment?: string;
  };
}
