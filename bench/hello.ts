// Baseline for the benchmark: a plain Express 5 "hello JSON" server (etag off, as the shop server).
import express from "express";

const app = express();
app.set("etag", false);
app.set("x-powered-by", false);
app.post("/hello", express.json(), (_req, res) => {
  res.type("json").send(JSON.stringify({ ok: true, result: { hello: "world" } }));
});
const server = app.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  const address = server.address();
  console.log(`READY ${typeof address === "object" && address ? address.port : ""}`);
});
