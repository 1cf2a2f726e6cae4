use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// A fixed-size pool of reusable connections of type `C`.
pub struct Pool<C> {
    inner: Arc<(Mutex<Vec<C>>, Condvar)>,
    pub checkout_timeout: Duration,
}

/// A connection borrowed from the pool; returned when dropped.
pub struct Lease<C> {
    conn: Option<C>,
    inner: Arc<(Mutex<Vec<C>>, Condvar)>,
}

impl<C> Pool<C> {
    pub fn new(conns: Vec<C>, checkout_timeout: Duration) -> Self {
        Pool {
            inner: Arc::new((Mutex::new(conns), Condvar::new())),
            checkout_timeout,
        }
    }

    /// Waits up to `checkout_timeout` for a free connection.
    pub fn get(&self) -> Option<Lease<C>> {
        let (lock, cvar) = &*self.inner;
        let guard = lock.lock().unwrap();
        let (mut free, _) = cvar
            .wait_timeout_while(guard, self.checkout_timeout, |f| f.is_empty())
            .unwrap();
        let conn = free.pop()?;
        Some(Lease {
            conn: Some(conn),
            inner: Arc::clone(&self.inner),
        })
    }

    /// Number of idle connections.
    pub fn idle(&self) -> usize {
        self.inner.0.lock().unwrap().len()
    }
}

impl<C> std::ops::Deref for Lease<C> {
    type Target = C;
    fn deref(&self) -> &C {
        self.conn.as_ref().expect("lease used after release")
    }
}

impl<C> Drop for Lease<C> {
    fn drop(&mut self) {
        if let Some(c) = self.conn.take() {
            self.inner.0.lock().unwrap().push(c);
            self.inner.1.notify_one();
        }
    }
}
