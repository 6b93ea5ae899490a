;;; emacs_driver_common.el --- What the Emacs drivers of tests/clients share  -*- lexical-binding: t; -*-

;; Loaded first by emacs_driver.el and eglot_rename_driver.el: the parameters (JSON in the file named by
;; $ALBEDO_EMACS_PARAMS), the result being built, the load path and server command, waiting on process
;; output, and typing keys.

(require 'json)
(require 'cl-lib)

(defvar driver-params
  (let ((json-object-type 'alist) (json-array-type 'list) (json-key-type 'symbol))
    (json-read-file (getenv "ALBEDO_EMACS_PARAMS"))))
(defun param (key) (alist-get key driver-params))

(defvar driver-result nil)
(defun driver-note (key value) (push (cons key value) driver-result))

(dolist (dir (param 'load_path)) (add-to-list 'load-path dir))
(setq albedo-skills-server-command (param 'cmd)) ; before loading: the defcustom keeps it

(defun wait-until (condition)
  "Wait on process output until CONDITION holds or the guard ends; non-nil when it held."
  (let ((deadline (+ (float-time) (/ (param 'guard_ms) 1000.0))) held)
    (while (and (not (setq held (funcall condition))) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    (and held t)))

(defun keys (&rest parts)
  "Type PARTS: `kbd' notation for a string in a list, literal text for a plain string."
  (execute-kbd-macro (apply #'vconcat (mapcar (lambda (part) (if (consp part) (kbd (car part)) part)) parts))))

(defun driver-finish (session)
  "Run SESSION, shut every eglot server down, write the result as JSON and end Emacs.
An error in SESSION is noted as `error'; `stopped' says whether shutdown/exit were answered before Emacs ends."
  (condition-case err
      (funcall session)
    (error (driver-note 'error (format "%S" err))))
  (driver-note 'stopped
               (condition-case err
                   (progn (maphash (lambda (_project servers) (mapc #'eglot-shutdown servers)) eglot--servers-by-project) t)
                 (error (format "%S" err))))
  (let ((json-encoding-pretty-print nil))
    (with-temp-file (param 'out) (insert (json-encode driver-result))))
  (kill-emacs 0))
