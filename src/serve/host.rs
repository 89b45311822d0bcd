//! The names a request may call the server by. A page on another site can
//! point its own name at 127.0.0.1 (DNS rebinding): to the browser the
//! server is then that site, its pages and sockets the same origin, and
//! the Origin check passes. Only the `Host` the browser sends still
//! names the attacker's site. So the server answers to the names it was
//! started for alone:
//!
//! - its bound address, at its port;
//! - `localhost`, `127.0.0.1` and `[::1]` at its port, when it listens on
//!   this machine (a loopback address) or on every address;
//! - any IP address at its port, when it listens on every address: an
//!   address is not a name, and no one can rebind it;
//! - the names given with `--public-name` (NAME: at any port; NAME:PORT:
//!   at that port alone).
//!
//! Any other DNS name, a request naming no host, and one naming two, are
//! refused. A Host without a port is at HTTP's port, 80.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::str::FromStr;

use axum::http::{HeaderMap, Uri, header};

/// A host as a request or `--public-name` names it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Host {
    Ip(IpAddr),
    /// A DNS name, in lower case.
    Name(String),
}

/// A name the server also answers to (`--public-name`): NAME, at any
/// port, or NAME:PORT, at that port alone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublicName {
    host: Host,
    port: Option<u16>,
}

impl FromStr for PublicName {
    type Err = String;

    fn from_str(text: &str) -> Result<PublicName, String> {
        let (host, port) = split(text).ok_or_else(|| {
            format!(
                "`{}` is not a host name or address, with or without a port \
                 (e.g. tables.example.org, tables.example.org:8080, [::1]:7878)",
                crate::text::clip(text)
            )
        })?;
        Ok(PublicName { host, port })
    }
}

/// The names one server answers to: its bound address and the public
/// names it was given.
#[derive(Debug, Clone)]
pub struct Hosts {
    bound: SocketAddr,
    names: Vec<PublicName>,
}

/// HTTP's port: where a Host without one is.
const HTTP_PORT: u16 = 80;

impl Hosts {
    pub fn new(bound: SocketAddr, names: Vec<PublicName>) -> Hosts {
        Hosts { bound, names }
    }

    /// Whether `text` (a Host header, or a URI's authority) names this
    /// server.
    pub fn allows(&self, text: &str) -> bool {
        let Some((host, port)) = split(text) else {
            return false;
        };
        let port = port.unwrap_or(HTTP_PORT);
        let public =
            (self.names.iter()).any(|n| n.host == host && n.port.is_none_or(|p| p == port));
        public || (port == self.bound.port() && self.bound_to(&host))
    }

    /// Whether `host` names the bound address (at its port).
    fn bound_to(&self, host: &Host) -> bool {
        let here = self.bound.ip();
        let local = here.is_loopback() || here.is_unspecified();
        match host {
            Host::Ip(ip) => {
                *ip == here
                    || here.is_unspecified()
                    || (local && (*ip == Ipv4Addr::LOCALHOST || *ip == Ipv6Addr::LOCALHOST))
            }
            Host::Name(n) => local && n == "localhost",
        }
    }

    /// Why a request is refused, or None when it names this server: its
    /// Host header, and its URI's authority when it has one (a request
    /// with a whole address in place of a path), must both be names
    /// this server answers to.
    pub fn refusal(&self, headers: &HeaderMap, uri: &Uri) -> Option<String> {
        let mut named = Vec::new();
        for v in headers.get_all(header::HOST) {
            named.push(v.to_str().unwrap_or("(not text)"));
        }
        if named.len() > 1 {
            return Some(format!(
                "A request names one host, not {}. This server answers to {}.",
                named.len(),
                self.said()
            ));
        }
        named.extend(uri.authority().map(|a| a.as_str()));
        if named.is_empty() {
            return Some(format!(
                "A request must name the server it is for (a Host header). This server answers to {}.",
                self.said()
            ));
        }
        let wrong = named.into_iter().find(|n| !self.allows(n))?;
        Some(format!(
            "This server does not answer to the name `{}`: a page of another site is refused, \
             whatever address its name leads to. It answers to {}; \
             `tabula serve --public-name NAME` gives it another name.",
            crate::text::clip(wrong),
            self.said()
        ))
    }

    /// The names allowed, in words.
    fn said(&self) -> String {
        let port = self.bound.port();
        let here = self.bound.ip();
        let mut said = Vec::new();
        if here.is_unspecified() {
            said.push(format!("any IP address at port {port}"));
        } else {
            said.push(address(here, Some(port)));
        }
        if here.is_loopback() || here.is_unspecified() {
            for ip in [
                IpAddr::V4(Ipv4Addr::LOCALHOST),
                IpAddr::V6(Ipv6Addr::LOCALHOST),
            ] {
                if ip != here {
                    said.push(address(ip, Some(port)));
                }
            }
            said.push(format!("localhost:{port}"));
        }
        for n in &self.names {
            said.push(match (&n.host, n.port) {
                (Host::Ip(ip), p) => address(*ip, p),
                (Host::Name(name), Some(p)) => format!("{name}:{p}"),
                (Host::Name(name), None) => name.clone(),
            });
        }
        said.join(", ")
    }
}

/// An address as a Host names it: `[v6]`, with its port if any.
fn address(ip: IpAddr, port: Option<u16>) -> String {
    let ip = match ip {
        IpAddr::V4(v) => v.to_string(),
        IpAddr::V6(v) => format!("[{v}]"),
    };
    match port {
        Some(p) => format!("{ip}:{p}"),
        None => ip,
    }
}

/// A Host's parts: the host (an IPv4 address, `[IPv6]`, or a DNS name of
/// letters, digits, `-`, `_` and dots) and its port, if given; None when
/// it is none of these.
fn split(text: &str) -> Option<(Host, Option<u16>)> {
    let port = |p: &str| match p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()) {
        true => None,
        false => p.parse::<u16>().ok(),
    };
    if let Some(rest) = text.strip_prefix('[') {
        let (ip, after) = rest.split_once(']')?;
        let ip: Ipv6Addr = ip.parse().ok()?;
        let p = match after {
            "" => None,
            _ => Some(port(after.strip_prefix(':')?)?),
        };
        return Some((Host::Ip(IpAddr::V6(ip)), p));
    }
    let (host, p) = match text.rsplit_once(':') {
        Some((h, p)) => (h, Some(port(p)?)),
        None => (text, None),
    };
    if let Ok(ip) = host.parse::<Ipv4Addr>() {
        return Some((Host::Ip(IpAddr::V4(ip)), p));
    }
    let name = |b: u8| b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'.';
    match !host.is_empty() && host.len() <= 253 && host.bytes().all(name) {
        true => Some((Host::Name(host.to_ascii_lowercase()), p)),
        false => None,
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn hosts(bound: &str, names: &[&str]) -> Hosts {
        let names = names.iter().map(|n| n.parse().unwrap()).collect();
        Hosts::new(bound.parse().unwrap(), names)
    }

    #[test]
    fn on_loopback_the_bound_address_and_localhost_at_its_port() {
        let h = hosts("127.0.0.1:7878", &[]);
        for ok in [
            "127.0.0.1:7878",
            "localhost:7878",
            "LocalHost:7878",
            "[::1]:7878",
        ] {
            assert!(h.allows(ok), "{ok}");
        }
        for no in [
            "evil.example:7878",
            "localhost:7879",
            "localhost",
            "127.0.0.1",
            "127.0.0.2:7878",
            "192.168.1.5:7878",
            "localhost.:7878",
            "127.1:7878",
            "2130706433:7878",
            "[::1]",
            "::1:7878",
            "localhost:+7878",
            "user@localhost:7878",
            "",
            ":7878",
        ] {
            assert!(!h.allows(no), "{no}");
        }
    }

    #[test]
    fn on_every_address_any_ip_address_but_no_other_name() {
        let h = hosts("0.0.0.0:7878", &[]);
        for ok in [
            "192.168.1.5:7878",
            "10.0.0.2:7878",
            "[fe80::1]:7878",
            "localhost:7878",
            "0.0.0.0:7878",
        ] {
            assert!(h.allows(ok), "{ok}");
        }
        for no in [
            "mybox.local:7878",
            "192.168.1.5:80",
            "192.168.1.5",
            "evil.example:7878",
        ] {
            assert!(!h.allows(no), "{no}");
        }
        let h = hosts("[::]:7878", &[]);
        assert!(h.allows("[fe80::1]:7878") && h.allows("10.0.0.2:7878"));
        assert!(!h.allows("mybox.local:7878"));
    }

    #[test]
    fn on_one_address_that_address_alone() {
        let h = hosts("192.168.1.5:7878", &[]);
        assert!(h.allows("192.168.1.5:7878"));
        for no in ["localhost:7878", "127.0.0.1:7878", "10.0.0.2:7878"] {
            assert!(!h.allows(no), "{no}");
        }
    }

    #[test]
    fn public_names_at_any_port_or_their_own() {
        let h = hosts(
            "127.0.0.1:7878",
            &["Tables.example.org", "proxy.example:443", "203.0.113.5:80"],
        );
        for ok in [
            "tables.example.org",
            "tables.example.org:7878",
            "tables.example.org:8080",
            "proxy.example:443",
            "203.0.113.5",
            "203.0.113.5:80",
        ] {
            assert!(h.allows(ok), "{ok}");
        }
        for no in [
            "proxy.example",
            "proxy.example:7878",
            "203.0.113.5:7878",
            "evil.tables.example.org",
        ] {
            assert!(!h.allows(no), "{no}");
        }
        for bad in [
            "http://tables.example.org",
            "tables.example.org/",
            "a b",
            "x:port",
            "",
        ] {
            assert!(bad.parse::<PublicName>().is_err(), "{bad}");
        }
    }
}
