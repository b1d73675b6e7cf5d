// nginx in front of cattle_grid, as the tests run it
// (docs/cattle-grid-differences.md#running-the-real-cattle_grid-in-tests): cattle_grid's
// ActivityPub routes live under /ap/, trust two headers that the proxy sets, and have every
// signature checked through /auth/auth. Everything nginx writes stays in `dir`; it runs in the
// foreground so that its pid is the child's.

export function nginxConfig(input: { dir: string; port: number; appPort: number }): string {
  const app = `http://127.0.0.1:${input.appPort}`;
  // As root the workers would run as nobody, who cannot enter our 0700 temporary folder.
  const user = process.getuid?.() === 0 ? "user root;" : "";
  return `
${user}
daemon off;
master_process on;
worker_processes 1;
pid ${input.dir}/nginx.pid;
error_log ${input.dir}/nginx-error.log warn;
events { worker_connections 256; }
http {
  access_log ${input.dir}/nginx-access.log;
  client_body_temp_path ${input.dir}/nginx-body;
  proxy_temp_path ${input.dir}/nginx-proxy;
  fastcgi_temp_path ${input.dir}/nginx-fastcgi;
  uwsgi_temp_path ${input.dir}/nginx-uwsgi;
  scgi_temp_path ${input.dir}/nginx-scgi;
  server {
    listen 127.0.0.1:${input.port};
    # $http_host, not $host: the port belongs in the URLs.
    location /fe/ { proxy_pass ${app}; proxy_buffering off; proxy_read_timeout 1h; }
    location = /cattle_grid_actor { proxy_pass ${app}/auth/cattle_grid_actor; }
    location = /_auth {
      internal;
      proxy_pass ${app}/auth/auth;
      proxy_pass_request_body off;
      proxy_set_header Content-Length "";
      proxy_set_header X-Original-URI $request_uri;
      proxy_set_header X-Original-Method $request_method;
      proxy_set_header X-Original-Host $http_host;
    }
    location ~ ^/(actor|inbox|shared_inbox|outbox|followers|following|object|\\.well-known)(/|$) {
      auth_request /_auth;
      auth_request_set $requester $upstream_http_x_cattle_grid_requester;
      proxy_set_header X-AP-Location "$scheme://$http_host$request_uri";
      proxy_set_header X-Cattle-Grid-Requester $requester;
      rewrite ^/(.*)$ /ap/$1 break;
      proxy_pass ${app};
    }
  }
}
`;
}
