//! The server's accept loop, in place of `axum::serve`, which sets no
//! timeout at all: a stranger who opens connections and never finishes a
//! request's headers would hold a file each until the process had none
//! left for anyone. Here:
//!
//! - a request's headers must arrive within `Limits::header` of its
//!   first byte; a connection kept alive between requests is closed once
//!   no new request has begun for as long (hyper's header timeout, which
//!   runs from the moment it waits for the next request);
//! - a write the other end does not take for `Limits::idle` closes the
//!   connection (a client that never reads its answer);
//! - one address holds at most `Limits::per_address` connections, the
//!   open pages' WebSockets among them; past it, a new one is told so in
//!   one line and closed;
//! - when the process is out of files, accepting waits a little and
//!   tries again, and the connections already open go on.
//!
//! An open page's WebSocket is kept alive by the pings of
//! [`super::http`], not by these timeouts.

use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};

use super::Limits;

/// Serve `app` on `listener` until `stop` resolves; then every connection
/// is closed once its request is answered (WebSockets close as their
/// tables stop), waiting 10 seconds at most.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: Limits,
    stop: impl Future<Output = ()>,
) -> io::Result<()> {
    let addresses = Arc::new(Addresses::default());
    let (closing, closing_rx) = tokio::sync::watch::channel(false);
    // Each connection holds a sender: when all are dropped, all are closed.
    let (alive, mut alive_rx) = tokio::sync::mpsc::channel::<()>(1);
    let mut told = false;
    tokio::pin!(stop);
    loop {
        let accepted = tokio::select! {
            _ = &mut stop => break,
            a = listener.accept() => a,
        };
        let (stream, peer) = match accepted {
            Ok(a) => a,
            Err(e) => {
                // Out of files, most likely: said once; the next try
                // waits a little, the connections open go on.
                if !told {
                    eprintln!(
                        "tabula: a connection could not be accepted ({e}); trying again (said once)"
                    );
                    told = true;
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let Some(held) = addresses.take(peer.ip(), limits.per_address) else {
            refuse(&stream, limits.per_address);
            continue;
        };
        let _ = stream.set_nodelay(true);
        let io = TokioIo::new(Tracked {
            stream,
            _held: held,
            idle: limits.idle,
            stall: None,
        });
        let service = TowerToHyperService::new(app.clone());
        let mut closing = closing_rx.clone();
        let alive = alive.clone();
        tokio::spawn(async move {
            let mut b = http1::Builder::new();
            b.timer(TokioTimer::new())
                .header_read_timeout(limits.header);
            let conn = b.serve_connection(io, service).with_upgrades();
            tokio::pin!(conn);
            tokio::select! {
                _ = conn.as_mut() => {}
                _ = closing.changed() => {
                    conn.as_mut().graceful_shutdown();
                    let _ = conn.await;
                }
            }
            drop(alive);
        });
    }
    let _ = closing.send(true);
    drop(alive);
    let _ = tokio::time::timeout(Duration::from_secs(10), alive_rx.recv()).await;
    Ok(())
}

/// A connection past the address's limit: one line to say why, then
/// closed (the write cannot wait: the socket is new, its buffer empty).
fn refuse(stream: &TcpStream, most: usize) {
    let text = format!(
        "this address has {most} connections open to the server, its most (--max-per-address): close some pages"
    );
    let answer = format!(
        "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n\
         Connection: close\r\nContent-Length: {}\r\n\r\n{text}",
        text.len()
    );
    let _ = stream.try_write(answer.as_bytes());
}

/// Connections open, by the address they come from.
#[derive(Default)]
struct Addresses(Mutex<HashMap<IpAddr, usize>>);

impl Addresses {
    /// A place for one more connection from `ip`, under `most`.
    fn take(self: &Arc<Self>, ip: IpAddr, most: usize) -> Option<Held> {
        // An IPv4 client on an IPv6 socket is the same address.
        let ip = ip.to_canonical();
        let mut map = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let n = map.entry(ip).or_insert(0);
        if *n >= most {
            return None;
        }
        *n += 1;
        Some(Held {
            addresses: self.clone(),
            ip,
        })
    }
}

/// A connection's place under its address's limit, given back on drop.
struct Held {
    addresses: Arc<Addresses>,
    ip: IpAddr,
}

impl Drop for Held {
    fn drop(&mut self) {
        let mut map = self.addresses.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = map.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                map.remove(&self.ip);
            }
        }
    }
}

/// A connection's stream, holding its place under the address's limit
/// for as long as it is open (a WebSocket's too, which takes the stream
/// over), and failing a write that waits longer than `idle`.
struct Tracked {
    stream: TcpStream,
    _held: Held,
    idle: Duration,
    /// Running while a write waits.
    stall: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl Tracked {
    /// A write is waiting: Pending until it has waited `idle`, then the
    /// error that closes the connection.
    fn stalled<T>(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<T>> {
        let idle = self.idle;
        let sleep = (self.stall).get_or_insert_with(|| Box::pin(tokio::time::sleep(idle)));
        match sleep.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the other end took nothing written for the idle timeout",
            ))),
            Poll::Pending => Poll::Pending,
        }
    }

    fn done<T>(&mut self, r: Poll<io::Result<T>>, cx: &mut Context<'_>) -> Poll<io::Result<T>> {
        match r {
            Poll::Ready(r) => {
                self.stall = None;
                Poll::Ready(r)
            }
            Poll::Pending => self.stalled(cx),
        }
    }
}

impl AsyncRead for Tracked {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for Tracked {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let r = Pin::new(&mut this.stream).poll_write(cx, buf);
        this.done(r, cx)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let r = Pin::new(&mut this.stream).poll_write_vectored(cx, bufs);
        this.done(r, cx)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let r = Pin::new(&mut this.stream).poll_flush(cx);
        this.done(r, cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
    }
}
