/** A JSON listing page of about `bytes` bytes, shaped like the service's (the same bytes every time). */
export function jsonBody(bytes: number): Buffer {
  const entries: unknown[] = [];
  const page = {
    data: entries,
    pagination: { pageSize: 20, pageIndex: 1, continuationToken: "MjAyNTA2MjVfMTkxNDMzMw+/=" },
  };
  let index = 0;
  while (JSON.stringify(page).length < bytes) {
    index += 1;
    entries.push({
      payer: { email: `payer${index}@example.org`, firstName: "Jean", lastName: "Durant" },
      items: [{ id: 8868440 + index, amount: 4599, type: "Registration", state: "Processed" }],
      amount: { total: 4599, vat: 0 },
      id: 8868440 + index,
      date: "2025-09-30T11:20:55.8062172+02:00",
    });
  }
  return Buffer.from(JSON.stringify(page));
}
