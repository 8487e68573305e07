export async function getJson(url, init) {
  const response = await fetch(url, init);
  const body = await response.json().catch(() => ({ error: `${response.status} ${response.statusText}` }));
  if (!response.ok)
    throw Object.assign(new Error(body.error ?? response.statusText), { status: response.status });
  return body;
}

// --- runs list -------------------------------------------------------------
