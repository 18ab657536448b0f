//! The reply envelope (spec §7): `{status, result, error_message}`; `status` 0 is success,
//! otherwise a code of the catalogue ([`kernel::ErrorCode`]).

use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use kernel::{AppError, ErrorCode};
use serde::Serialize;
use utoipa::ToSchema;

/// Success: `{"status": 0, "result": …, "error_message": null}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct Envelope<T> {
    /// 0 on success, else a code of the `ErrorCode` catalogue.
    pub status: u32,
    pub result: Option<T>,
    /// English text of the error (the app translates by `status`).
    pub error_message: Option<String>,
}

/// Failure: `status` is the code, `result` optional data (e.g. `retryAfterSeconds`).
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorEnvelope {
    /// A code of the `ErrorCode` catalogue.
    pub status: u32,
    #[schema(value_type = Option<Object>)]
    pub result: Option<serde_json::Value>,
    pub error_message: String,
}

/// A successful reply.
pub struct Ok<T>(pub T);

/// An error reply.
#[derive(Debug)]
pub struct ApiError(pub AppError);

pub type ApiResult<T> = Result<Ok<T>, ApiError>;

pub fn ok<T>(value: T) -> ApiResult<T> {
    Result::Ok(Ok(value))
}

fn json_response(status: StatusCode, body: Vec<u8>) -> Response {
    let mut resp = (status, body).into_response();
    resp.headers_mut().insert(axum::http::header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    resp.headers_mut().insert(axum::http::header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    resp
}

impl<T: Serialize> IntoResponse for Ok<T> {
    fn into_response(self) -> Response {
        let env = Envelope { status: 0, result: Some(self.0), error_message: None };
        match serde_json::to_vec(&env) {
            Result::Ok(body) => json_response(StatusCode::OK, body),
            Err(e) => ApiError(AppError::internal(e)).into_response(),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let code = self.0.code;
        let env = ErrorEnvelope { status: code.code(), result: self.0.data.clone(), error_message: self.0.text() };
        let body = serde_json::to_vec(&env).unwrap_or_else(|_| b"{\"status\":1000,\"result\":null,\"error_message\":\"Request execution failed.\"}".to_vec());
        let status = StatusCode::from_u16(code.http_status()).unwrap_or(StatusCode::OK);
        let mut resp = json_response(status, body);
        if let Some(secs) = self.0.data.as_ref().and_then(|d| d.get("retryAfterSeconds")).and_then(|v| v.as_u64()) {
            if let Result::Ok(v) = HeaderValue::from_str(&secs.to_string()) {
                resp.headers_mut().insert(axum::http::header::RETRY_AFTER, v);
            }
        }
        resp
    }
}

impl From<AppError> for ApiError {
    fn from(e: AppError) -> Self {
        ApiError(e)
    }
}

impl From<ErrorCode> for ApiError {
    fn from(c: ErrorCode) -> Self {
        ApiError(AppError::new(c))
    }
}

impl From<wallet::LedgerError> for ApiError {
    fn from(e: wallet::LedgerError) -> Self {
        ApiError(e.into())
    }
}

pub fn bad_request(detail: impl Into<String>) -> ApiError {
    ApiError(AppError::with_detail(ErrorCode::BadRequest, detail))
}
